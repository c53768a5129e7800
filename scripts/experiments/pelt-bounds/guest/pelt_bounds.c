// SPDX-License-Identifier: GPL-2.0
/*
 * pelt_bounds: does every cfs_rq's runnable_avg stay within what its
 * tasks can produce, and does a task's load leave its cfs_rq with it?
 *
 * removal: wakeup migrations and exits. Each takes an entity's averages
 *   off its old cfs_rq without that CPU's rq lock
 *   (remove_entity_load_avg()); the next update of that cfs_rq subtracts
 *   them and a sum estimated from them (update_cfs_rq_load_avg()). A
 *   worker spins 1 ms and sleeps 1 ms, over and over, while the main
 *   thread moves its affinity between CPU0 and CPU1 every 1 ms: when the
 *   worker sleeps at that moment, its next wakeup migrates it. Beside it,
 *   children that spin 1 ms and exit are forked one after the other, on
 *   CPU0 and CPU1 in turn. A sampler thread reads every cfs_rq of the
 *   debug file every SAMPLE_MS for RUN_MS.
 *
 *   Limit, from first principles: a cfs_rq's runnable_avg is 1024 for
 *   each of its runnable entities, scaled by the share of recent time it
 *   was runnable. At most four tasks of the test are runnable at once
 *   (main, sampler, worker, one child), so the test alone gives a cfs_rq
 *   at most 4 * 1024. RUNNABLE_LIMIT is four times that, for the guest's
 *   own kernel threads. A removal whose sum comes out as a large positive
 *   number instead of a negative one (unsigned long * u32 in 32 bits,
 *   then widened to s64, as load_sum and runnable_sum are u64) adds about
 *   2^32 / LOAD_AVG_MAX, some 89,000, to runnable_avg and to load_avg per
 *   removal. load_avg is printed but not judged: it weighs each entity by
 *   its nice level, up to 88761 for a nice -20 kernel thread, so it has no
 *   bound of this kind (a 32-bit guest of 6.12.118 showed 24492 with
 *   runnable_avg below 2000).
 *
 * setscheduler: a live task that held its CPU alone for SPIN_MS switches
 *   itself from fair to SCHED_FIFO. switched_from_fair() takes its load
 *   off the cfs_rq once; if the reweight of the same sched_setscheduler()
 *   call ran on the fair class after that (dequeue_load_avg() and
 *   enqueue_load_avg()), it would take it off again, clamped at 0, and
 *   put it back: a phantom of up to the task's load_avg (~1022 after
 *   SPIN_MS). Right after the switch, the task (now FIFO, so nothing fair
 *   runs on that CPU) reads its CPU's root cfs_rq: what is left there
 *   must be below PHANTOM_LIMIT = 1024 / 4.
 *
 * Both read /sys/kernel/debug/sched/debug (CONFIG_DEBUG_FS; before 6.15
 * also CONFIG_SCHED_DEBUG). Output is TAP; exit status 0 if all pass, 1 if
 * any fails, 4 if all skip. Needs root and CPU0 and CPU1. Build statically
 * for the guest: cc -static -O2 -Wall -pthread -o pelt_bounds pelt_bounds.c
 */
#include "guest_util.h"

#include <pthread.h>
#include <signal.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#define RUN_MS			2000
#define SAMPLE_MS		10
#define TEST_TASKS		4
#define RUNNABLE_LIMIT		(4 * TEST_TASKS * 1024L)
#define SPIN_MS			300
#define PHANTOM_LIMIT		256

#define KSFT_PASS		0
#define KSFT_FAIL		1
#define KSFT_SKIP		4

/* The largest load_avg and runnable_avg seen, and where. */
struct peak {
	long load_avg, runnable_avg;
	char load_where[96], runnable_where[96];
	int samples;
};

static int peak_field(const struct cfs_field *f, void *arg)
{
	struct peak *p = arg;
	long v;

	if (strcmp(f->key, "load_avg") && strcmp(f->key, "runnable_avg"))
		return 0;
	v = strtol(f->value, NULL, 10);
	if (!strcmp(f->key, "load_avg") && v > p->load_avg) {
		p->load_avg = v;
		snprintf(p->load_where, sizeof(p->load_where), "cfs_rq[%d]:%s",
			 f->cpu, f->path);
	} else if (!strcmp(f->key, "runnable_avg") && v > p->runnable_avg) {
		p->runnable_avg = v;
		snprintf(p->runnable_where, sizeof(p->runnable_where),
			 "cfs_rq[%d]:%s", f->cpu, f->path);
	}
	return 0;
}

static volatile bool stop_sampling;

static void *sampler_fn(void *arg)
{
	struct peak *p = arg;
	char *buf;

	while (!stop_sampling) {
		buf = read_file(SCHED_DEBUG_FILE);
		if (buf) {
			for_each_cfs_field(buf, peak_field, p);
			p->samples++;
			free(buf);
		}
		sleep_ms(SAMPLE_MS);
	}
	return NULL;
}

static int set_cpu(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

static pid_t spawn_worker(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;) {
			spin_ms(1);
			sleep_ms(1);
		}
	}
	return pid;
}

/* Fork children that spin 1 ms and exit, one at a time, until end. */
static int churn_children(double end, int *migrations, pid_t worker)
{
	int nr = 0, cpu = 0;
	pid_t pid;

	while (now_ms() < end) {
		pid = fork();
		if (pid < 0)
			return -1;
		if (pid == 0) {
			if (set_cpu(0, cpu))
				_exit(1);
			spin_ms(1);
			_exit(0);
		}
		/* The worker moves while the child runs. */
		if (set_cpu(worker, cpu) == 0)
			(*migrations)++;
		waitpid(pid, NULL, 0);
		cpu ^= 1;
		nr++;
	}
	return nr;
}

static int test_removal(int nr)
{
	struct peak peak = { 0 };
	pthread_t sampler;
	int children, moves = 0;
	pid_t worker;
	bool bad;

	worker = spawn_worker();
	if (worker < 0) {
		printf("not ok %d removal # fork: %s\n", nr, strerror(errno));
		return KSFT_FAIL;
	}
	stop_sampling = false;
	if (pthread_create(&sampler, NULL, sampler_fn, &peak)) {
		kill(worker, SIGKILL);
		waitpid(worker, NULL, 0);
		printf("not ok %d removal # pthread_create failed\n", nr);
		return KSFT_FAIL;
	}
	children = churn_children(now_ms() + RUN_MS, &moves, worker);
	stop_sampling = true;
	pthread_join(sampler, NULL);
	kill(worker, SIGKILL);
	waitpid(worker, NULL, 0);
	if (children < 0) {
		printf("not ok %d removal # fork: %s\n", nr, strerror(errno));
		return KSFT_FAIL;
	}
	printf("# removal: %d children exited, %d affinity moves, %d samples\n",
	       children, moves, peak.samples);
	printf("# removal: peak runnable_avg %ld at %s; limit %ld\n",
	       peak.runnable_avg, peak.runnable_where, RUNNABLE_LIMIT);
	printf("# removal: peak load_avg %ld at %s (not judged)\n",
	       peak.load_avg, peak.load_where);
	if (!peak.samples) {
		printf("not ok %d removal # no sample of %s\n", nr,
		       SCHED_DEBUG_FILE);
		return KSFT_FAIL;
	}
	bad = peak.runnable_avg > RUNNABLE_LIMIT;
	printf("%s %d removal\n", bad ? "not ok" : "ok", nr);
	return bad ? KSFT_FAIL : KSFT_PASS;
}

struct root_avgs {
	int cpu;
	struct cfs_figures fig;
};

static int root_field(const struct cfs_field *f, void *arg)
{
	struct root_avgs *r = arg;

	if (f->cpu == r->cpu && !strcmp(f->path, "/"))
		cfs_figures_take(&r->fig, f);
	return 0;
}

static int read_root(int cpu, struct root_avgs *r)
{
	char *buf = read_file(SCHED_DEBUG_FILE);

	memset(r, 0, sizeof(*r));
	r->cpu = cpu;
	if (!buf)
		return -1;
	for_each_cfs_field(buf, root_field, r);
	free(buf);
	return 0;
}

static void print_root(const char *when, const struct root_avgs *r)
{
	printf("# setscheduler: %-6s cfs_rq[%d]:/ load_avg %ld runnable_avg %ld util_avg %ld (removed.* pending %ld/%ld/%ld)\n",
	       when, r->cpu, cfs_left(r->fig.load_avg, r->fig.removed_load),
	       cfs_left(r->fig.runnable_avg, r->fig.removed_runnable),
	       cfs_left(r->fig.util_avg, r->fig.removed_util), r->fig.removed_load,
	       r->fig.removed_runnable, r->fig.removed_util);
}

/*
 * Child on CPU1: spins SPIN_MS as a fair task, reads, switches itself to
 * FIFO, reads again at once, and reports the load_avg left through the
 * exit status' pipe.
 */
static void setscheduler_child(int fd)
{
	struct sched_param fifo = { .sched_priority = 1 };
	struct root_avgs before, after;
	char msg[256];

	if (set_cpu(0, 1))
		_exit(2);
	spin_ms(SPIN_MS);
	if (read_root(1, &before))
		_exit(2);
	if (sched_setscheduler(0, SCHED_FIFO, &fifo))
		_exit(3);
	if (read_root(1, &after))
		_exit(2);
	print_root("fair", &before);
	print_root("FIFO", &after);
	snprintf(msg, sizeof(msg), "%ld %d\n",
		 cfs_left(after.fig.load_avg, after.fig.removed_load), after.fig.listed);
	if (write(fd, msg, strlen(msg)) < 0)
		_exit(2);
	_exit(0);
}

static int test_setscheduler(int nr)
{
	char buf[64] = "";
	int fds[2], status;
	long load = -1;
	int listed = 0;
	pid_t pid;

	if (pipe(fds)) {
		printf("not ok %d setscheduler # pipe: %s\n", nr, strerror(errno));
		return KSFT_FAIL;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		setscheduler_child(fds[1]);
	}
	close(fds[1]);
	if (pid > 0 && read(fds[0], buf, sizeof(buf) - 1) > 0)
		sscanf(buf, "%ld %d", &load, &listed);
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		printf("not ok %d setscheduler # child failed (status %d)\n",
		       nr, pid > 0 ? status : -1);
		return KSFT_FAIL;
	}
	if (!listed) {
		/* A cfs_rq not in the file is fully decayed: nothing left. */
		printf("ok %d setscheduler\n", nr);
		return KSFT_PASS;
	}
	printf("# setscheduler: left on CPU1 after the switch %ld; limit %d\n",
	       load, PHANTOM_LIMIT);
	printf("%s %d setscheduler\n", load > PHANTOM_LIMIT ? "not ok" : "ok",
	       nr);
	return load > PHANTOM_LIMIT ? KSFT_FAIL : KSFT_PASS;
}

int main(void)
{
	int pass = 0, fail = 0;
	struct utsname u;

	if (tap_start_skips())
		return KSFT_SKIP;
	if (pin_to(1) || pin_to(0)) {
		printf("1..0 # SKIP needs CPU0 and CPU1\n");
		return KSFT_SKIP;
	}
	printf("1..2\n");
	if (!uname(&u))
		printf("# kernel %s %s\n", u.release, u.machine);
	if (test_removal(1) == KSFT_PASS)
		pass++;
	else
		fail++;
	if (test_setscheduler(2) == KSFT_PASS)
		pass++;
	else
		fail++;
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n",
	       pass, fail);
	return fail ? KSFT_FAIL : KSFT_PASS;
}
