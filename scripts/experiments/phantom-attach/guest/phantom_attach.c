// SPDX-License-Identifier: GPL-2.0
/*
 * phantom_attach: do a dead task's PELT averages come back on a cfs_rq?
 *
 * A thread group leader that exits with pthread_exit() while its other
 * threads live on stays a zombie task_struct. Its class and group can still
 * be changed, and each change detaches it from and attaches it to a cfs_rq
 * (switched_from_fair()/switched_to_fair(), task_change_group_fair()). A
 * kernel that took a dead task's sums off at its death must not attach them
 * again: nothing would ever take them off.
 *
 * Each test: a child process's leader thread spins 300 ms on CPU0 and
 * calls pthread_exit(); another thread of it, on CPU1, waits 400 ms and
 * then pulls one trigger on the zombie leader:
 *
 *   setscheduler: sched_setscheduler() fair -> SCHED_FIFO -> fair;
 *   setsid:       setsid(), which moves every thread of the process, the
 *                 zombie leader included, to a new autogroup
 *                 (sched_move_task(); a no-op on a kernel with the
 *                 sched_move_task() fast path when the group is unchanged).
 *
 * each with the process in the root cgroup and, if the cpu controller of
 * cgroup v2 is available, in a cpu cgroup of its own (there the zombie
 * stays in that group, so tg->load_avg is checked as well). The sched_ext
 * trigger (disabling a BPF scheduler switches its tasks back to fair) is
 * not covered.
 *
 * Before and right after the trigger, a third thread, pinned to CPU0 and
 * asleep otherwise, is woken so that CPU0's cfs_rqs are brought up to date
 * (an idle CPU's blocked averages may be stale), and then CPU0's figures
 * are read from /sys/kernel/debug/sched/debug (CONFIG_DEBUG_FS; on kernels
 * before 6.15, also CONFIG_SCHED_DEBUG): util_avg, runnable_avg and
 * load_avg of the root cfs_rq and of the test's cgroup, less what is
 * pending removal (removed.*), and the cgroup's tg_load_avg.
 *
 * Threshold, from first principles. PELT halves a signal every 32 ms. The
 * leader ran alone on CPU0 for 300 ms (9.4 half-lives), so at its death
 * its util_avg and runnable_avg are above 1024 * (1 - 2^-9.4) = 1022 and
 * its load_avg (nice 0) close to that too. At the trigger it has been dead
 * for 400 ms (12.5 half-lives): what may legitimately be left of it on
 * CPU0 is below 1024 * 2^-12.5 < 1, and CPU0 runs nothing of ours but the
 * waker thread's few microseconds. If its averages are attached again as
 * they were at its death, CPU0 shows about 1000 more right after the
 * trigger than right before it. The test fails when any figure grew by
 * more than PHANTOM_LIMIT = 1024 / 4 = 256 across the trigger, which a
 * phantom of 1022 only drops below after two half-lives; so the read must
 * follow the trigger within READ_LIMIT_MS, or the test skips. The growth,
 * not the level, is judged: CPU0 may still carry a little of other recent
 * work (a guest's own housekeeping, the test's previous child), and
 * tg_load_avg sums every CPU, the operator's CPU1 included.
 *
 * Output is TAP; exit status 0 if all pass, 1 if any fails, 4 if all
 * skip. Needs root and two CPUs (CPU0 and CPU1 online). Build statically
 * for the guest: cc -static -O2 -Wall -pthread -o phantom_attach
 * phantom_attach.c
 */
#include "guest_util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define SPIN_MS			300
#define DEAD_WAIT_MS		400
#define PHANTOM_LIMIT		256
#define READ_LIMIT_MS		32.0

#define CGROUP_ROOT		"/sys/fs/cgroup"
#define CGROUP_NAME		"phantom_attach"
#define CGROUP_DIR		CGROUP_ROOT "/" CGROUP_NAME

#define KSFT_PASS		0
#define KSFT_FAIL		1
#define KSFT_SKIP		4

enum trigger { TRIGGER_SETSCHEDULER, TRIGGER_SETSID };
static const char * const trigger_name[] = { "setscheduler", "setsid" };

struct sample {
	struct cfs_figures root, group;
};

enum outcome { MEASURED, SKIPPED, BROKEN };

struct result {
	enum outcome outcome;
	char msg[160];		/* why it skipped or broke */
	double delay_ms;	/* trigger done -> after-read done */
	struct sample before, after;
};

struct test {
	enum trigger trigger;
	bool in_cgroup;
};

/* Shared by the threads of the child process of one test. */
static struct {
	const struct test *test;
	pid_t tgid;
	int leader_done[2];	/* leader -> operator: about to exit */
	int wake[2];		/* operator -> waker: run once on CPU0 */
	int woken[2];		/* waker -> operator: ran */
	int result_fd;		/* operator -> parent */
} ctx;

struct cpu0_reading {
	struct sample *sample;
	const char *group_path;
};

/*
 * A field of CPU0's root cfs_rq or of the test's cgroup's; a cfs_rq that
 * is in the file is on CPU0's leaf list ("listed"), i.e. not fully decayed.
 */
static int cpu0_field(const struct cfs_field *f, void *arg)
{
	struct cpu0_reading *r = arg;
	struct cfs_figures *fig;

	if (f->cpu != 0)
		return 0;
	if (!strcmp(f->path, "/"))
		fig = &r->sample->root;
	else if (r->group_path && !strcmp(f->path, r->group_path))
		fig = &r->sample->group;
	else
		return 0;
	cfs_figures_take(fig, f);
	return 0;
}

static int sample_cpu0(struct sample *s, const char *group_path)
{
	struct cpu0_reading r = { s, group_path };
	char *buf = read_file(SCHED_DEBUG_FILE);

	if (!buf)
		return -1;
	memset(s, 0, sizeof(*s));
	for_each_cfs_field(buf, cpu0_field, &r);
	free(buf);
	return 0;
}

static void print_figures(const char *name, const struct cfs_figures *f,
			  bool with_tg)
{
	if (!f->listed) {
		printf("#   %-28s not listed (fully decayed)\n", name);
		return;
	}
	printf("#   %-28s util_avg %4ld runnable_avg %4ld load_avg %4ld",
	       name, cfs_left(f->util_avg, f->removed_util),
	       cfs_left(f->runnable_avg, f->removed_runnable),
	       cfs_left(f->load_avg, f->removed_load));
	if (f->removed_util || f->removed_runnable || f->removed_load)
		printf(" (removed.* pending %ld/%ld/%ld)", f->removed_util,
		       f->removed_runnable, f->removed_load);
	if (with_tg)
		printf(" tg_load_avg %ld", f->tg_load_avg);
	printf("\n");
}

/* What grew by more than the limit across the trigger, or NULL. */
static const char *over_limit(const struct cfs_figures *before,
			      const struct cfs_figures *after, bool with_tg)
{
	if (!after->listed)
		return NULL;
	if (cfs_left(after->util_avg, after->removed_util) -
	    cfs_left(before->util_avg, before->removed_util) > PHANTOM_LIMIT)
		return "util_avg";
	if (cfs_left(after->runnable_avg, after->removed_runnable) -
	    cfs_left(before->runnable_avg, before->removed_runnable) > PHANTOM_LIMIT)
		return "runnable_avg";
	if (cfs_left(after->load_avg, after->removed_load) -
	    cfs_left(before->load_avg, before->removed_load) > PHANTOM_LIMIT)
		return "load_avg";
	if (with_tg && after->tg_load_avg - before->tg_load_avg > PHANTOM_LIMIT)
		return "tg_load_avg";
	return NULL;
}

/* Thread pinned to CPU0 that runs for a moment whenever it is woken. */
static void *waker_fn(void *arg)
{
	char c;

	(void)arg;
	if (pin_to(0))
		return NULL;
	while (read(ctx.wake[0], &c, 1) == 1) {
		if (write(ctx.woken[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

/* Wake the waker on CPU0, so that CPU0's cfs_rqs get updated. */
static void touch_cpu0(void)
{
	char c = 't';

	if (write(ctx.wake[1], &c, 1) == 1 && read(ctx.woken[0], &c, 1) == 1)
		sleep_ms(1);
}

static char zombie_state(pid_t pid)
{
	char path[64], *buf, *p;
	char state = '?';

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	buf = read_file(path);
	if (!buf)
		return state;
	p = strrchr(buf, ')');
	if (p && p[1] == ' ')
		state = p[2];
	free(buf);
	return state;
}

static int pull_trigger(enum trigger trigger, char *msg, size_t size)
{
	struct sched_param fifo = { .sched_priority = 1 }, other = { 0 };

	switch (trigger) {
	case TRIGGER_SETSCHEDULER:
		if (sched_setscheduler(ctx.tgid, SCHED_FIFO, &fifo)) {
			snprintf(msg, size, "sched_setscheduler(SCHED_FIFO): %s",
				 strerror(errno));
			return -1;
		}
		if (sched_setscheduler(ctx.tgid, SCHED_OTHER, &other)) {
			snprintf(msg, size, "sched_setscheduler(SCHED_OTHER): %s",
				 strerror(errno));
			return -1;
		}
		return 0;
	case TRIGGER_SETSID:
		if (setsid() < 0) {
			snprintf(msg, size, "setsid(): %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	return -1;
}

/* Runs on CPU1: waits for the leader's death, pulls the trigger, reads. */
static void *operator_fn(void *arg)
{
	const char *group_path = ctx.test->in_cgroup ? "/" CGROUP_NAME : NULL;
	struct result r = { 0 };
	double t;
	char c;

	(void)arg;
	r.outcome = SKIPPED;
	if (pin_to(1)) {
		snprintf(r.msg, sizeof(r.msg), "cannot run on CPU1: %s",
			 strerror(errno));
		goto out;
	}
	if (read(ctx.leader_done[0], &c, 1) != 1) {
		r.outcome = BROKEN;
		snprintf(r.msg, sizeof(r.msg), "lost the leader");
		goto out;
	}
	sleep_ms(DEAD_WAIT_MS);
	c = zombie_state(ctx.tgid);
	if (c != 'Z') {
		snprintf(r.msg, sizeof(r.msg),
			 "leader is in state %c, not a zombie", c);
		goto out;
	}

	touch_cpu0();
	if (sample_cpu0(&r.before, group_path)) {
		snprintf(r.msg, sizeof(r.msg), "cannot read %s",
			 SCHED_DEBUG_FILE);
		goto out;
	}
	if (pull_trigger(ctx.test->trigger, r.msg, sizeof(r.msg)))
		goto out;
	t = now_ms();
	touch_cpu0();
	if (sample_cpu0(&r.after, group_path)) {
		r.outcome = BROKEN;
		snprintf(r.msg, sizeof(r.msg), "cannot read %s",
			 SCHED_DEBUG_FILE);
		goto out;
	}
	r.delay_ms = now_ms() - t;
	r.outcome = MEASURED;
out:
	if (write(ctx.result_fd, &r, sizeof(r)) != sizeof(r))
		_exit(2);
	/* Ends every thread; the zombie leader is reaped with the process. */
	exit(0);
}

/* The child process of one test; its main thread is the leader. */
static void run_child(const struct test *test, int result_fd)
{
	pthread_t waker, operator;

	ctx.test = test;
	ctx.tgid = getpid();
	ctx.result_fd = result_fd;
	if (pipe(ctx.leader_done) || pipe(ctx.wake) || pipe(ctx.woken))
		_exit(2);
	if (test->in_cgroup) {
		char pid[32];

		snprintf(pid, sizeof(pid), "%d", ctx.tgid);
		if (write_file(CGROUP_DIR "/cgroup.procs", pid))
			_exit(2);
	}
	if (pthread_create(&waker, NULL, waker_fn, NULL) ||
	    pthread_create(&operator, NULL, operator_fn, NULL))
		_exit(2);

	if (pin_to(0))
		_exit(2);
	spin_ms(SPIN_MS);
	if (write(ctx.leader_done[1], "x", 1) != 1)
		_exit(2);
	pthread_exit(NULL);
}

static int run_test(int nr, const struct test *test)
{
	const char *name = trigger_name[test->trigger];
	const char *where = test->in_cgroup ? "cpu cgroup" : "root cgroup";
	const char *over_root, *over_group = NULL;
	struct result r;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(fds)) {
		printf("not ok %d %s, %s # pipe: %s\n", nr, name, where,
		       strerror(errno));
		return KSFT_FAIL;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("not ok %d %s, %s # fork: %s\n", nr, name, where,
		       strerror(errno));
		return KSFT_FAIL;
	}
	if (!pid) {
		close(fds[0]);
		run_child(test, fds[1]);
	}
	close(fds[1]);
	n = read(fds[0], &r, sizeof(r));
	close(fds[0]);
	waitpid(pid, &status, 0);

	if (n != sizeof(r)) {
		printf("not ok %d %s, %s # child failed (status %#x)\n", nr,
		       name, where, status);
		return KSFT_FAIL;
	}
	if (r.outcome == SKIPPED) {
		printf("ok %d %s, %s # SKIP %s\n", nr, name, where, r.msg);
		return KSFT_SKIP;
	}
	if (r.outcome == BROKEN) {
		printf("not ok %d %s, %s # %s\n", nr, name, where, r.msg);
		return KSFT_FAIL;
	}

	printf("# %s, %s: CPU0 before the trigger\n", name, where);
	print_figures("cfs_rq[0]:/", &r.before.root, false);
	if (test->in_cgroup)
		print_figures("cfs_rq[0]:/" CGROUP_NAME, &r.before.group, true);
	printf("# %s, %s: CPU0 after the trigger (read done %.1f ms after it)\n",
	       name, where, r.delay_ms);
	print_figures("cfs_rq[0]:/", &r.after.root, false);
	if (test->in_cgroup)
		print_figures("cfs_rq[0]:/" CGROUP_NAME, &r.after.group, true);

	over_root = over_limit(&r.before.root, &r.after.root, false);
	if (test->in_cgroup)
		over_group = over_limit(&r.before.group, &r.after.group, true);
	if (over_root || over_group) {
		printf("not ok %d %s, %s # %s %s grew by more than %d on idle CPU0",
		       nr, name, where, over_root ? "cfs_rq[0]:/" :
		       "cfs_rq[0]:/" CGROUP_NAME,
		       over_root ? over_root : over_group, PHANTOM_LIMIT);
		printf(": a dead task's averages came back\n");
		return KSFT_FAIL;
	}
	if (r.delay_ms > READ_LIMIT_MS) {
		printf("ok %d %s, %s # SKIP read %.1f ms after the trigger",
		       nr, name, where, r.delay_ms);
		printf(", more than %.0f: a phantom may have decayed\n",
		       READ_LIMIT_MS);
		return KSFT_SKIP;
	}
	printf("ok %d %s, %s\n", nr, name, where);
	return KSFT_PASS;
}

/* Is "cpu" one of the words of a cgroup.controllers file? */
static bool setup_cgroup(void)
{
	if (!lists_cpu(CGROUP_ROOT "/cgroup.controllers"))
		return false;
	write_file(CGROUP_ROOT "/cgroup.subtree_control", "+cpu");
	if (mkdir(CGROUP_DIR, 0755) && errno != EEXIST)
		return false;
	return lists_cpu(CGROUP_DIR "/cgroup.controllers");
}

static void cleanup_cgroup(void)
{
	int i;

	/* The last test's process may take a moment to be gone. */
	for (i = 0; i < 50 && rmdir(CGROUP_DIR) && errno == EBUSY; i++)
		sleep_ms(20);
}

int main(void)
{
	struct test tests[] = {
		{ TRIGGER_SETSCHEDULER, false },
		{ TRIGGER_SETSID, false },
		{ TRIGGER_SETSCHEDULER, true },
		{ TRIGGER_SETSID, true },
	};
	int nr_tests = ARRAY_SIZE(tests);
	int i, rc, pass = 0, fail = 0, skip = 0;
	bool cgroup;

	if (tap_start_skips())
		return KSFT_SKIP;
	if (pin_to(1) || pin_to(0) || pin_to(1)) {
		printf("1..0 # SKIP needs CPU0 and CPU1\n");
		return KSFT_SKIP;
	}
	cgroup = setup_cgroup();

	printf("1..%d\n", nr_tests);
	printf("# the leader spins %d ms on CPU0; the trigger comes %d ms",
	       SPIN_MS, DEAD_WAIT_MS);
	printf(" after its death; limit: growth by %d across it\n", PHANTOM_LIMIT);
	for (i = 0; i < nr_tests; i++) {
		if (tests[i].in_cgroup && !cgroup) {
			printf("ok %d %s, cpu cgroup # SKIP no cgroup v2 cpu controller at %s\n",
			       i + 1, trigger_name[tests[i].trigger],
			       CGROUP_ROOT);
			skip++;
			continue;
		}
		rc = run_test(i + 1, &tests[i]);
		if (rc == KSFT_PASS)
			pass++;
		else if (rc == KSFT_SKIP)
			skip++;
		else
			fail++;
	}
	if (cgroup)
		cleanup_cgroup();

	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n",
	       pass, fail, skip);
	if (fail)
		return KSFT_FAIL;
	return pass ? KSFT_PASS : KSFT_SKIP;
}
