// SPDX-License-Identifier: GPL-2.0
/*
 * pelt_stress: race everything that moves a task's PELT averages between
 * cfs_rqs against fork and exit, then check that nothing was left behind.
 *
 * For --seconds, at once:
 *   fork-group    fork/exit storm in cpu cgroup a, moved between a and b
 *                 every few ms while b's and a's weights change;
 *   fork-session  fork/exit storm in its own session (autogroup), every
 *                 8th child calling setsid() itself before it exits;
 *   fork-root     fork/exit storm in the root group;
 *   zombies       processes whose leader thread exits first while another
 *                 thread calls setsid() and one switches the zombie leader
 *                 fair -> SCHED_FIFO -> fair and moves the process to
 *                 another cgroup;
 *   autogroup     /proc/sys/kernel/sched_autogroup_enabled switched off and
 *                 on, and the nice value of fork-session's autogroup
 *                 changed;
 *   classes       two busy/sleeping tasks switched between SCHED_OTHER,
 *                 SCHED_BATCH, SCHED_IDLE and SCHED_FIFO, nice changed;
 *   hotplug       (--hotplug) the last CPU taken offline and back;
 *   wakers        short sleepers and a pipe ping-pong, unpinned, in cgroup
 *                 b: wakeup migrations, counted when a thread finds itself
 *                 on another CPU;
 *   throttled     (kernels with CFS bandwidth control) in cgroup c, whose
 *                 quota is 2 ms per 10 ms period: a fork/exit storm, and
 *                 tasks in long system calls or spinning in user space
 *                 killed at random times, so that tasks die on throttled
 *                 cfs_rqs, some with the throttle work pending on their
 *                 way back to user space when SIGKILL comes.
 *
 * Every second the cfs_rq sections of /sys/kernel/debug/sched/debug are
 * read: no average may be negative or above 2^62 (an unsigned underflow).
 *
 * After the stress every process of it is gone and the guest is idle. A
 * dead task's averages may only decay: every cfs_rq must then show zero
 * load, load_avg, runnable_avg, util_avg, util_est, removed.*, nr_running,
 * tg_load_avg_contrib, group entity averages and, with CFS bandwidth
 * control (c's quota lifted by then), throttled and throttle_count; every
 * task group's tg_load_avg must equal the sum of its cfs_rqs'
 * tg_load_avg_contrib (a contribution kept by a cfs_rq that left the leaf
 * list is invisible in the file but not in tg_load_avg). The reader itself
 * runs somewhere: it reads from each CPU in turn, from the root group and
 * from inside cgroups a, b and c (so that their cfs_rqs are listed and
 * their tg_load_avg shown), and the cfs_rqs it runs in on its own CPU are
 * only held to the tg_load_avg sum.
 * An idle CPU's averages are updated lazily, so each of these readings is
 * retried for up to --idle-timeout seconds; the check fails, naming the
 * cfs_rq and field, when one never comes out clean.
 *
 * TAP, three tests: stress (every activity happened, no worker crashed),
 * no_underflow, no_leak; exit 0 when all pass, 1 otherwise. Needs root and
 * a kernel with debugfs and SCHED_DEBUG (before 6.15) for the two checks,
 * which skip without them. Meant for a test guest: it changes sysctls,
 * cgroups and (with --hotplug) CPUs, and restores them at the end.
 *
 * --check-file FILE judges a saved copy of the debug file instead, as the
 * leak check would with the reader on --reader-cpu in the root group (for
 * testing the check itself).
 *
 * Build: cc -static -O2 -Wall -pthread -o pelt_stress pelt_stress.c
 */
#include "guest_util.h"

#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define CGROUP_NAME	"pelt_stress"
#define UNDERFLOW	(1ULL << 62)

struct counters {
	long forks, exits, child_setsid, zombie_rounds, zombie_setsid;
	long zombie_setscheduler, zombie_moves, cgroup_moves, weight_changes;
	long autogroup_toggles, autogroup_nice, class_switches, hotplugs;
	long wakeups, migrations, samples, throttled_kills, throttled_periods;
	int stop;
	pid_t session_pid;
};

static struct counters *cnt;

#define COUNT(field)	__atomic_fetch_add(&cnt->field, 1, __ATOMIC_RELAXED)
#define STOPPING()	__atomic_load_n(&cnt->stop, __ATOMIC_RELAXED)

static struct {
	int seconds;
	int idle_timeout;
	bool hotplug;
	const char *check_file;
	int reader_cpu;
	const char *cgroup_root;
	bool no_monitor;
} opt = { 60, 30, false, NULL, 0, "/sys/fs/cgroup", false };

/* Task group paths as the debug file prints them, and their directories. */
static char cg_parent_dir[256], cg_a_dir[272], cg_b_dir[272], cg_c_dir[272];
static char cg_a_path[64], cg_b_path[64], cg_c_path[64];
static const char *weight_file;	/* cpu.weight (v2) or cpu.shares (v1) */
static bool have_cgroups;
static bool have_bandwidth;	/* c has a CFS bandwidth quota */
static int hotplug_cpu = -1;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pelt_stress [options]\n"
		"\n"
		"Fork/exit storms in a cpu cgroup, in sessions and in the root\n"
		"group, zombie thread group leaders changed by their threads,\n"
		"cgroup moves and weights, autogroup on/off and nice, class\n"
		"changes, CPU hotplug, wakeup migrations and, with CFS bandwidth\n"
		"control, tasks dying in a throttled cgroup, all at once; then\n"
		"checks that no cfs_rq or task group kept any load, util or\n"
		"runnable average (TAP; exit 0 pass, 1 fail). For test guests.\n"
		"\n"
		"  --seconds N        stress this long (default %d)\n"
		"  --minutes N        the same in minutes\n"
		"  --hotplug          take the last CPU offline and back, in turn\n"
		"  --idle-timeout S   give the averages S seconds to decay (default %d)\n"
		"  --no-monitor       do not read the debug file during the stress\n"
		"                     (no_underflow skips): on kernels whose\n"
		"                     debug.c calls avg_vruntime() without the rq\n"
		"                     lock (6.12.117), reading it while CPUs are\n"
		"                     busy can corrupt EEVDF state\n"
		"  --cgroup-root DIR  cgroup v2 mount, or v1 hierarchy root whose\n"
		"                     cpu/ holds the cpu controller (default %s)\n"
		"  --check-file FILE  only judge a saved sched debug file, read\n"
		"  --reader-cpu K     on CPU K from the root group (default 0)\n"
		"  -h, --help         this text\n",
		opt.seconds, opt.idle_timeout, opt.cgroup_root);
}

static int write_int(const char *dir, const char *file, long v)
{
	char path[512], s[32];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	snprintf(s, sizeof(s), "%ld", v);
	return write_file(path, s);
}

static int move_to(const char *dir, pid_t pid)
{
	return write_int(dir, "cgroup.procs", pid);
}

/* cgroup v2 at the root, else a v1 hierarchy with the cpu controller. */
static bool setup_cgroups(void)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", opt.cgroup_root);
	if (lists_cpu(path)) {
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control",
			 opt.cgroup_root);
		write_file(path, "+cpu");
		snprintf(cg_parent_dir, sizeof(cg_parent_dir), "%s/" CGROUP_NAME,
			 opt.cgroup_root);
		weight_file = "cpu.weight";
	} else {
		snprintf(path, sizeof(path), "%s/cpu/cpu.shares", opt.cgroup_root);
		if (stat(path, &st))
			return false;
		snprintf(cg_parent_dir, sizeof(cg_parent_dir),
			 "%s/cpu/" CGROUP_NAME, opt.cgroup_root);
		weight_file = "cpu.shares";
	}
	if (mkdir(cg_parent_dir, 0755) && errno != EEXIST)
		return false;
	if (!strcmp(weight_file, "cpu.weight")) {
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control",
			 cg_parent_dir);
		if (write_file(path, "+cpu"))
			return false;
	}
	snprintf(cg_a_dir, sizeof(cg_a_dir), "%s/a", cg_parent_dir);
	snprintf(cg_b_dir, sizeof(cg_b_dir), "%s/b", cg_parent_dir);
	snprintf(cg_c_dir, sizeof(cg_c_dir), "%s/c", cg_parent_dir);
	snprintf(cg_a_path, sizeof(cg_a_path), "/" CGROUP_NAME "/a");
	snprintf(cg_b_path, sizeof(cg_b_path), "/" CGROUP_NAME "/b");
	snprintf(cg_c_path, sizeof(cg_c_path), "/" CGROUP_NAME "/c");
	if ((mkdir(cg_a_dir, 0755) && errno != EEXIST) ||
	    (mkdir(cg_b_dir, 0755) && errno != EEXIST) ||
	    (mkdir(cg_c_dir, 0755) && errno != EEXIST))
		return false;
	return true;
}

/*
 * A quota of 2 ms per 10 ms period on c (no such files without
 * CONFIG_CFS_BANDWIDTH), or none (quota = false), as the leak check wants
 * it: its reader must not wait for c's next period.
 */
static bool set_bandwidth(bool quota)
{
	char path[512];

	if (!strcmp(weight_file, "cpu.weight")) {
		snprintf(path, sizeof(path), "%s/cpu.max", cg_c_dir);
		return !write_file(path, quota ? "2000 10000" : "max 10000");
	}
	if (!quota)
		return !write_int(cg_c_dir, "cpu.cfs_quota_us", -1);
	return !write_int(cg_c_dir, "cpu.cfs_period_us", 10000) &&
	       !write_int(cg_c_dir, "cpu.cfs_quota_us", 2000);
}

/* nr_throttled of c's cpu.stat: periods in which c ran out of quota. */
static long throttled_periods(void)
{
	char path[512], *text, *at;
	long n = 0;

	snprintf(path, sizeof(path), "%s/cpu.stat", cg_c_dir);
	text = read_file(path);
	if (!text)
		return 0;
	at = strstr(text, "nr_throttled ");
	if (at)
		n = atol(at + strlen("nr_throttled "));
	free(text);
	return n;
}

static void remove_cgroups(void)
{
	const char *dirs[] = { cg_a_dir, cg_b_dir, cg_c_dir, cg_parent_dir };
	size_t i;
	int tries;

	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		for (tries = 0; tries < 100 && rmdir(dirs[i]) && errno == EBUSY;
		     tries++)
			sleep_ms(20);
}

/* The hierarchy's root, where the reader and the root-group workers go. */
static const char *root_dir(void)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s", cg_parent_dir);
	*strrchr(path, '/') = '\0';
	return path;
}

/* ---- the workers: each a process, looping until cnt->stop ---- */

enum fork_mode { FORK_GROUP, FORK_SESSION, FORK_ROOT, FORK_THROTTLED };

static void worker_fork(enum fork_mode mode)
{
	long i;

	if (mode == FORK_GROUP && have_cgroups)
		move_to(cg_a_dir, getpid());
	if (mode == FORK_THROTTLED)
		move_to(cg_c_dir, getpid());
	if (mode == FORK_SESSION) {
		setsid();
		cnt->session_pid = getpid();
	}
	for (i = 0; !STOPPING(); i++) {
		pid_t pid = fork();

		if (pid < 0) {
			sleep_ms(1);
			continue;
		}
		if (!pid) {
			/* Die with some utilization, sometimes as a session leader. */
			if (mode == FORK_SESSION && i % 8 == 0 && setsid() > 0)
				COUNT(child_setsid);
			spin_ms((i % 4) * 0.5);
			_exit(0);
		}
		COUNT(forks);
		if (waitpid(pid, NULL, 0) == pid)
			COUNT(exits);
	}
}

static pid_t zombie_tgid;

static void *zombie_setsid_fn(void *arg)
{
	sleep_ms(1);
	if (setsid() > 0)
		COUNT(zombie_setsid);
	return NULL;
}

static void *zombie_class_fn(void *arg)
{
	struct sched_param fifo = { .sched_priority = 1 }, other = { 0 };

	sleep_ms(2);
	if (!sched_setscheduler(zombie_tgid, SCHED_FIFO, &fifo) &&
	    !sched_setscheduler(zombie_tgid, SCHED_OTHER, &other))
		COUNT(zombie_setscheduler);
	if (have_cgroups && !move_to((long)arg & 1 ? cg_a_dir : cg_b_dir,
				     zombie_tgid))
		COUNT(zombie_moves);
	return NULL;
}

/* The leader spins, then exits first; its threads act on it. */
static void zombie_round(long round)
{
	pthread_t t1, t2;

	zombie_tgid = getpid();
	if (pthread_create(&t1, NULL, zombie_setsid_fn, NULL) ||
	    pthread_create(&t2, NULL, zombie_class_fn, (void *)round))
		_exit(1);
	spin_ms(1 + round % 3);
	pthread_exit(NULL);
}

static void worker_zombies(void)
{
	long round;

	for (round = 0; !STOPPING(); round++) {
		pid_t pid;

		/* Born in the root group or in a, in turn. */
		if (have_cgroups)
			move_to(round & 1 ? cg_a_dir : root_dir(), getpid());
		pid = fork();
		if (pid < 0) {
			sleep_ms(1);
			continue;
		}
		if (!pid)
			zombie_round(round);
		if (waitpid(pid, NULL, 0) == pid)
			COUNT(zombie_rounds);
	}
}

static void worker_mover(pid_t victim)
{
	long i;

	for (i = 0; !STOPPING(); i++) {
		if (!move_to(i & 1 ? cg_b_dir : cg_a_dir, victim))
			COUNT(cgroup_moves);
		if (i % 4 == 0) {
			long w = strcmp(weight_file, "cpu.weight") ?
				 256 + (i * 397) % 4096 : 10 + (i * 37) % 500;

			if (!write_int(i & 4 ? cg_a_dir : cg_b_dir, weight_file, w))
				COUNT(weight_changes);
		}
		sleep_ms(5);
	}
}

static void worker_autogroup(void)
{
	char path[64], nice[16];
	long i;

	for (i = 0; !STOPPING(); i++) {
		if (!write_file("/proc/sys/kernel/sched_autogroup_enabled",
				i & 1 ? "0" : "1"))
			COUNT(autogroup_toggles);
		if (cnt->session_pid) {
			snprintf(path, sizeof(path), "/proc/%d/autogroup",
				 cnt->session_pid);
			snprintf(nice, sizeof(nice), "%ld", -5 + i % 15);
			if (!write_file(path, nice))
				COUNT(autogroup_nice);
		}
		sleep_ms(50);
	}
}

static void busy_sleeper(void)
{
	while (!STOPPING()) {
		spin_ms(1);
		sleep_ms(1);
	}
	_exit(0);
}

static void worker_classes(void)
{
	static const int policies[] = { SCHED_OTHER, SCHED_BATCH, SCHED_IDLE,
					SCHED_FIFO };
	pid_t victims[2];
	long i;
	int v;

	for (v = 0; v < 2; v++) {
		victims[v] = fork();
		if (!victims[v])
			busy_sleeper();
	}
	if (have_cgroups && victims[1] > 0)
		move_to(cg_b_dir, victims[1]);
	for (i = 0; !STOPPING(); i++) {
		int policy = policies[i % ARRAY_SIZE(policies)];
		struct sched_param sp = {
			.sched_priority = policy == SCHED_FIFO ? 1 : 0
		};
		pid_t pid = victims[i & 1];

		if (pid > 0 && !sched_setscheduler(pid, policy, &sp)) {
			COUNT(class_switches);
			if (policy == SCHED_OTHER || policy == SCHED_BATCH)
				setpriority(PRIO_PROCESS, pid, -5 + i % 15);
		}
		sleep_ms(3);
	}
	for (v = 0; v < 2; v++)
		if (victims[v] > 0)
			waitpid(victims[v], NULL, 0);
}

static int set_online(int cpu, int online)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return write_file(path, online ? "1" : "0");
}

static void worker_hotplug(void)
{
	while (!STOPPING()) {
		if (!set_online(hotplug_cpu, 0)) {
			sleep_ms(200);
			if (!set_online(hotplug_cpu, 1))
				COUNT(hotplugs);
		}
		sleep_ms(800);
	}
	set_online(hotplug_cpu, 1);
}

static int ping[2], pong[2];

static void *sleeper_fn(void *arg)
{
	int last = sched_getcpu(), cpu;

	while (!STOPPING()) {
		sleep_ms(1);
		COUNT(wakeups);
		cpu = sched_getcpu();
		if (cpu != last)
			COUNT(migrations);
		last = cpu;
		spin_ms(0.1);
	}
	return NULL;
}

static void *ponger_fn(void *arg)
{
	char c;

	while (read(ping[0], &c, 1) == 1) {
		spin_ms(0.05);
		if (write(pong[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

static void worker_wakers(void)
{
	pthread_t sleepers[2], ponger;
	char c = 'x';
	int i;

	if (have_cgroups)
		move_to(cg_b_dir, getpid());
	if (pipe(ping) || pipe(pong))
		_exit(1);
	for (i = 0; i < 2; i++)
		pthread_create(&sleepers[i], NULL, sleeper_fn, NULL);
	pthread_create(&ponger, NULL, ponger_fn, NULL);
	while (!STOPPING()) {
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			break;
		COUNT(wakeups);
	}
	close(ping[1]);
	pthread_join(ponger, NULL);
	for (i = 0; i < 2; i++)
		pthread_join(sleepers[i], NULL);
}

/*
 * A victim in c: half of them in system calls long enough (a few ms of
 * clearing memory under emulation) for c to run out of quota inside one,
 * so that the throttle work is pending on the way back to user space when
 * SIGKILL comes; the other half spinning in user space. It says on ready
 * whether it is in c ('c') or not ('x'): the killer waits for that.
 */
static void throttled_victim(long round, int ready)
{
	static char buf[4 << 20];
	char where = move_to(cg_c_dir, getpid()) ? 'x' : 'c';
	int fd;

	if (write(ready, &where, 1) != 1 || where != 'c')
		_exit(1);
	fd = open("/dev/zero", O_RDONLY);
	for (;;) {
		if (round & 1 && fd >= 0)
			(void)!read(fd, buf, sizeof(buf));
		else
			spin_ms(1);
	}
}

static void worker_throttled(void)
{
	int ready[2];
	long round;

	if (pipe(ready))
		_exit(1);
	for (round = 0; !STOPPING(); round++) {
		bool in_c;
		char c;
		pid_t pid = fork();

		if (pid < 0) {
			sleep_ms(1);
			continue;
		}
		if (!pid) {
			close(ready[0]);
			throttled_victim(round, ready[1]);
		}
		/* Only a victim that made it into c counts. */
		in_c = read(ready[0], &c, 1) == 1 && c == 'c';
		/* 1 to 15 ms: killed before, inside or after a throttle. */
		sleep_ms(1 + (round * 7) % 15);
		kill(pid, SIGKILL);
		if (waitpid(pid, NULL, 0) == pid && in_c)
			COUNT(throttled_kills);
	}
}

/* ---- the checks of the debug file ---- */

static const char * const averages[] = {
	"load_avg", "runnable_avg", "util_avg", "util_est",
	"removed.load_avg", "removed.util_avg", "removed.runnable_avg",
	"tg_load_avg_contrib", "tg_load_avg",
	"se->avg.load_avg", "se->avg.util_avg", "se->avg.runnable_avg",
};

/* Must be zero on a cfs_rq nothing runs in (tg_load_avg is summed). */
static const char * const idle_zero[] = {
	"load", "nr_running", "load_avg", "runnable_avg", "util_avg",
	"util_est", "removed.load_avg", "removed.util_avg",
	"removed.runnable_avg", "tg_load_avg_contrib",
	"se->avg.load_avg", "se->avg.util_avg", "se->avg.runnable_avg",
	"throttled", "throttle_count",
};

/* Index of key in keys[0..n-1], or -1. */
static int key_index(const char *key, const char * const *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(key, keys[i]))
			return i;
	return -1;
}

struct underflow {
	char first[160];
	long count;
};

static int underflow_fn(const struct cfs_field *f, void *arg)
{
	struct underflow *u = arg;

	if (key_index(f->key, averages, ARRAY_SIZE(averages)) < 0)
		return 0;
	if (f->value[0] == '-' || strtoull(f->value, NULL, 10) >= UNDERFLOW) {
		if (!u->count++)
			snprintf(u->first, sizeof(u->first),
				 "cfs_rq[%d]:%s %s = %s", f->cpu, f->path,
				 f->key, f->value);
	}
	return 0;
}

#define MAX_GROUPS	64
#define MAX_FINDINGS	16
#define MAX_CPUS	64
#define BASELINE_READINGS	10

/*
 * The root cfs_rqs never go quiet: the guest's own kernel threads (RCU,
 * kworkers, the clocksource watchdog) run there. What they keep on an
 * idle CPU is measured before the stress, as the highest value of each
 * field over BASELINE_READINGS readings from another CPU; after the stress
 * a root cfs_rq must come back to that, a group cfs_rq to zero.
 */
static long root_baseline[MAX_CPUS][ARRAY_SIZE(idle_zero)];
static bool have_baseline;

struct leak_check {
	int reader_cpu;
	const char *reader_path;
	bool baseline;		/* only record the roots' idle values */
	struct {
		char path[128];
		long long tg_load_avg, contrib_sum;
	} tg[MAX_GROUPS];
	int nr_tg;
	char findings[MAX_FINDINGS][160];
	int nr_findings;
	long cfs_rqs;	/* fields seen, to tell an empty file */
};

static void add_finding(struct leak_check *lc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_finding(struct leak_check *lc, const char *fmt, ...)
{
	va_list ap;

	if (lc->nr_findings >= MAX_FINDINGS) {
		lc->nr_findings++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(lc->findings[lc->nr_findings++], sizeof(lc->findings[0]),
		  fmt, ap);
	va_end(ap);
}

/* Is path the reader's group or one of its ancestors? */
static bool holds_reader(const char *path, const char *reader_path)
{
	size_t len = strlen(path);

	if (!strcmp(path, "/"))
		return true;
	return !strncmp(reader_path, path, len) &&
	       (reader_path[len] == '\0' || reader_path[len] == '/');
}

static int leak_fn(const struct cfs_field *f, void *arg)
{
	struct leak_check *lc = arg;
	bool reader = f->cpu == lc->reader_cpu &&
		      holds_reader(f->path, lc->reader_path);
	int i, k;

	lc->cfs_rqs++;
	if (!strcmp(f->key, "tg_load_avg") ||
	    !strcmp(f->key, "tg_load_avg_contrib")) {
		for (i = 0; i < lc->nr_tg; i++)
			if (!strcmp(lc->tg[i].path, f->path))
				break;
		if (i == lc->nr_tg) {
			if (lc->nr_tg == MAX_GROUPS)
				return 0;
			snprintf(lc->tg[i].path, sizeof(lc->tg[i].path), "%s",
				 f->path);
			lc->tg[i].tg_load_avg = lc->tg[i].contrib_sum = 0;
			lc->nr_tg++;
		}
		if (!strcmp(f->key, "tg_load_avg"))
			lc->tg[i].tg_load_avg = strtoll(f->value, NULL, 10);
		else
			lc->tg[i].contrib_sum += strtoll(f->value, NULL, 10);
	}
	k = key_index(f->key, idle_zero, ARRAY_SIZE(idle_zero));
	if (reader || k < 0)
		return 0;
	if (lc->baseline) {
		/* Before the stress: how far housekeeping takes the roots. */
		if (!strcmp(f->path, "/") && f->cpu < MAX_CPUS &&
		    atol(f->value) > root_baseline[f->cpu][k])
			root_baseline[f->cpu][k] = atol(f->value);
		return 0;
	}
	if (!strcmp(f->path, "/")) {
		long idle = f->cpu < MAX_CPUS && have_baseline ?
			    root_baseline[f->cpu][k] : 0;

		if (atol(f->value) > idle)
			add_finding(lc, "cfs_rq[%d]:%s %s = %s (idle before: %ld)",
				    f->cpu, f->path, f->key, f->value, idle);
	} else if (strcmp(f->value, "0")) {
		add_finding(lc, "cfs_rq[%d]:%s %s = %s", f->cpu, f->path,
			    f->key, f->value);
	}
	return 0;
}

/* Judge one reading; returns the number of findings. */
static int judge(char *text, struct leak_check *lc)
{
	int i;

	lc->nr_tg = lc->nr_findings = 0;
	lc->cfs_rqs = 0;
	for_each_cfs_field(text, leak_fn, lc);
	if (!lc->cfs_rqs)
		add_finding(lc, "no cfs_rq in the file");
	for (i = 0; i < lc->nr_tg; i++)
		if (lc->tg[i].tg_load_avg != lc->tg[i].contrib_sum)
			add_finding(lc, "task group %s: tg_load_avg = %lld but its listed cfs_rqs contribute %lld",
				    lc->tg[i].path, lc->tg[i].tg_load_avg,
				    lc->tg[i].contrib_sum);
	return lc->nr_findings;
}

static void print_findings(const struct leak_check *lc)
{
	int i;

	for (i = 0; i < lc->nr_findings && i < MAX_FINDINGS; i++)
		printf("#   %s\n", lc->findings[i]);
	if (lc->nr_findings > MAX_FINDINGS)
		printf("#   ... and %d more\n", lc->nr_findings - MAX_FINDINGS);
}

static void unpin(int ncpus)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < ncpus; cpu++)
		CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Let the CPUs' blocked averages update (idle entries), then read. */
static char *settle_and_read(void)
{
	int i;

	for (i = 0; i < 5; i++)
		sleep_ms(20);
	return read_file(SCHED_DEBUG_FILE);
}

static void measure_baseline(int ncpus)
{
	int cpu, i, n = 0;

	for (cpu = 0; cpu < ncpus && ncpus > 1; cpu++) {
		struct leak_check lc = { .reader_cpu = cpu, .reader_path = "/",
					 .baseline = true };

		if (pin_to(cpu))
			continue;
		for (i = 0; i < BASELINE_READINGS; i++) {
			char *text = settle_and_read();

			if (!text)
				return;
			judge(text, &lc);
			free(text);
			n++;
		}
	}
	have_baseline = n > 0;
	unpin(ncpus);
	for (cpu = 0; cpu < ncpus && cpu < MAX_CPUS && have_baseline; cpu++) {
		printf("# idle before the stress, root cfs_rq[%d], highest of %d readings:",
		       cpu, BASELINE_READINGS);
		for (i = 0; i < (int)ARRAY_SIZE(idle_zero); i++)
			if (root_baseline[cpu][i])
				printf(" %s=%ld", idle_zero[i], root_baseline[cpu][i]);
		printf("\n");
	}
}

/*
 * Read from every CPU, in every group; a reading is retried until it is
 * clean or the time is up.
 */
static bool leak_check(int ncpus)
{
	const char *paths[] = { "/", cg_a_path, cg_b_path, cg_c_path };
	const char *dirs[] = { root_dir(), cg_a_dir, cg_b_dir, cg_c_dir };
	int nr_groups = have_cgroups ? 4 : 1, cpu, g, attempt, total = 0;
	double deadline = now_ms() + opt.idle_timeout * 1e3;
	bool ok = true;

	for (cpu = 0; cpu < ncpus; cpu++) {
		for (g = 0; g < nr_groups; g++) {
			struct leak_check lc = {
				.reader_cpu = cpu, .reader_path = paths[g]
			};
			bool clean = false;

			if (pin_to(cpu)) {
				printf("# cannot run on CPU %d: %s\n", cpu,
				       strerror(errno));
				return false;
			}
			if (have_cgroups)
				move_to(dirs[g], getpid());
			for (attempt = 0; !clean;) {
				char *text = settle_and_read();

				attempt++;
				if (!text) {
					printf("# %s: %s\n", SCHED_DEBUG_FILE,
					       strerror(errno));
					return false;
				}
				clean = !judge(text, &lc);
				free(text);
				total++;
				if (!clean && now_ms() > deadline)
					break;
			}
			printf("# reader on CPU %d in %s: %s after %d reading(s)\n",
			       cpu, paths[g], clean ? "clean" : "NOT clean",
			       attempt);
			if (!clean) {
				print_findings(&lc);
				ok = false;
			}
		}
	}
	if (have_cgroups)
		move_to(root_dir(), getpid());
	unpin(ncpus);
	printf("# leak check: %d readings in %.1f s\n", total,
	       (now_ms() - deadline) / 1e3 + opt.idle_timeout);
	return ok;
}

static int check_file(void)
{
	struct leak_check lc = { .reader_cpu = opt.reader_cpu, .reader_path = "/" };
	char *text = read_file(opt.check_file);

	if (!text) {
		fprintf(stderr, "pelt_stress: %s: %s\n", opt.check_file,
			strerror(errno));
		return 2;
	}
	if (judge(text, &lc)) {
		printf("not clean: %d finding(s)\n", lc.nr_findings);
		print_findings(&lc);
		return 1;
	}
	printf("clean\n");
	return 0;
}

/* ---- main ---- */

static pid_t start(const char *name, void (*fn)(void), pid_t *pids, int *nr)
{
	pid_t pid = fork();

	if (pid < 0) {
		printf("# cannot fork the %s worker: %s\n", name, strerror(errno));
		return -1;
	}
	if (!pid) {
		prctl(PR_SET_NAME, name);
		fn();
		_exit(0);
	}
	pids[(*nr)++] = pid;
	return pid;
}

static void fork_group(void) { worker_fork(FORK_GROUP); }
static void fork_session(void) { worker_fork(FORK_SESSION); }
static void fork_root(void) { worker_fork(FORK_ROOT); }
static void fork_throttled(void) { worker_fork(FORK_THROTTLED); }
static pid_t mover_victim;
static void mover(void) { worker_mover(mover_victim); }

static void print_counts(const char *when)
{
	printf("# %s: forks=%ld exits=%ld child_setsid=%ld zombie_rounds=%ld zombie_setsid=%ld zombie_setscheduler=%ld zombie_moves=%ld cgroup_moves=%ld weight_changes=%ld autogroup_toggles=%ld autogroup_nice=%ld class_switches=%ld hotplugs=%ld wakeups=%ld migrations=%ld throttled_kills=%ld throttled_periods=%ld samples=%ld\n",
	       when, cnt->forks, cnt->exits, cnt->child_setsid,
	       cnt->zombie_rounds, cnt->zombie_setsid, cnt->zombie_setscheduler,
	       cnt->zombie_moves, cnt->cgroup_moves, cnt->weight_changes,
	       cnt->autogroup_toggles, cnt->autogroup_nice, cnt->class_switches,
	       cnt->hotplugs, cnt->wakeups, cnt->migrations,
	       cnt->throttled_kills, cnt->throttled_periods, cnt->samples);
	fflush(stdout);
}

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "minutes", required_argument, NULL, 'm' },
		{ "hotplug", no_argument, NULL, 'H' },
		{ "no-monitor", no_argument, NULL, 'n' },
		{ "idle-timeout", required_argument, NULL, 'i' },
		{ "cgroup-root", required_argument, NULL, 'c' },
		{ "check-file", required_argument, NULL, 'f' },
		{ "reader-cpu", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	char *end;
	long v;
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
		case 'm':
		case 'i':
		case 'r':
			v = strtol(optarg, &end, 10);
			if (*end || v < 0 || v > 100000 || (c != 'r' && !v)) {
				fprintf(stderr, "pelt_stress: bad number '%s'\n", optarg);
				exit(2);
			}
			if (c == 's')
				opt.seconds = v;
			else if (c == 'm')
				opt.seconds = v * 60;
			else if (c == 'i')
				opt.idle_timeout = v;
			else
				opt.reader_cpu = v;
			break;
		case 'H':
			opt.hotplug = true;
			break;
		case 'n':
			opt.no_monitor = true;
			break;
		case 'c':
			opt.cgroup_root = optarg;
			break;
		case 'f':
			opt.check_file = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pelt_stress: unexpected argument '%s'\n", argv[optind]);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	pid_t pids[16];
	int nr = 0, i, ncpus, status, crashed = 0;
	char *text, autogroup_was[8] = "";
	struct underflow uf = { "", 0 };
	bool debug_file, stress_ok, leak_ok = false;
	double end, next_report;

	parse_args(argc, argv);
	if (opt.check_file)
		return check_file();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid()) {
		printf("1..0 # SKIP pelt_stress needs root\n");
		return 4;
	}
	mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	text = read_file(SCHED_DEBUG_FILE);
	debug_file = text != NULL;
	free(text);
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (opt.hotplug && ncpus > 1) {
		char path[96];

		/* No such file without CONFIG_HOTPLUG_CPU (optional on some arches). */
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/online", ncpus - 1);
		if (!access(path, W_OK))
			hotplug_cpu = ncpus - 1;
	}
	have_cgroups = setup_cgroups();
	have_bandwidth = have_cgroups && set_bandwidth(true);
	text = read_file("/proc/sys/kernel/sched_autogroup_enabled");
	if (text) {
		snprintf(autogroup_was, sizeof(autogroup_was), "%s", text);
		free(text);
	}
	cnt = mmap(NULL, sizeof(*cnt), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cnt == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* Orphans of the workers come to us and are reaped at the end. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	printf("TAP version 13\n1..3\n");
	printf("# %d s on %d CPUs; cgroups: %s; autogroup: %s; hotplug: %s; bandwidth: %s; debug file: %s\n",
	       opt.seconds, ncpus, have_cgroups ? weight_file : "none (no cpu controller)",
	       autogroup_was[0] ? "yes" : "no",
	       hotplug_cpu > 0 ? "yes" : opt.hotplug ? "no (no cpuN/online)" : "no",
	       have_bandwidth ? "yes" : "no", debug_file ? "yes" : "no");

	if (debug_file)
		measure_baseline(ncpus);
	mover_victim = start("fork-group", fork_group, pids, &nr);
	start("fork-session", fork_session, pids, &nr);
	start("fork-root", fork_root, pids, &nr);
	start("zombies", worker_zombies, pids, &nr);
	if (have_cgroups && mover_victim > 0)
		start("mover", mover, pids, &nr);
	if (autogroup_was[0])
		start("autogroup", worker_autogroup, pids, &nr);
	start("classes", worker_classes, pids, &nr);
	if (hotplug_cpu > 0)
		start("hotplug", worker_hotplug, pids, &nr);
	start("wakers", worker_wakers, pids, &nr);
	if (have_bandwidth) {
		start("fork-throttled", fork_throttled, pids, &nr);
		start("throttled", worker_throttled, pids, &nr);
	}

	end = now_ms() + opt.seconds * 1e3;
	next_report = now_ms() + 60e3;
	while (now_ms() < end) {
		sleep_ms(1000);
		if (debug_file && !opt.no_monitor) {
			text = read_file(SCHED_DEBUG_FILE);
			if (text) {
				for_each_cfs_field(text, underflow_fn, &uf);
				COUNT(samples);
				free(text);
			}
		}
		if (now_ms() >= next_report) {
			if (have_bandwidth)
				cnt->throttled_periods = throttled_periods();
			print_counts("so far");
			next_report += 60e3;
		}
	}

	__atomic_store_n(&cnt->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < nr; i++) {
		if (waitpid(pids[i], &status, 0) != pids[i])
			continue;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("# worker %d ended with status 0x%x\n", pids[i], status);
			crashed++;
		}
	}
	while (waitpid(-1, NULL, 0) > 0)
		;
	for (i = 1; i < ncpus; i++)
		set_online(i, 1);
	if (have_bandwidth) {
		cnt->throttled_periods = throttled_periods();
		/* A c still throttled would fail no_leak: say why. */
		if (!set_bandwidth(false))
			printf("# cannot lift the quota of %s: %s\n", cg_c_dir,
			       strerror(errno));
	}
	if (autogroup_was[0])
		write_file("/proc/sys/kernel/sched_autogroup_enabled", autogroup_was);
	print_counts("done");

	stress_ok = !crashed && cnt->forks && cnt->exits == cnt->forks &&
		    cnt->zombie_rounds && cnt->zombie_setsid &&
		    cnt->zombie_setscheduler && cnt->class_switches &&
		    cnt->wakeups && cnt->child_setsid &&
		    (!have_cgroups || (cnt->cgroup_moves && cnt->weight_changes &&
				       cnt->zombie_moves)) &&
		    (!autogroup_was[0] || (cnt->autogroup_toggles &&
					   cnt->autogroup_nice)) &&
		    (hotplug_cpu <= 0 || cnt->hotplugs) &&
		    (!have_bandwidth || (cnt->throttled_kills &&
					 cnt->throttled_periods));
	printf("%s 1 stress\n", stress_ok ? "ok" : "not ok");

	if (!debug_file) {
		printf("ok 2 no_underflow # SKIP no %s (debugfs, SCHED_DEBUG)\n",
		       SCHED_DEBUG_FILE);
		printf("ok 3 no_leak # SKIP no %s (debugfs, SCHED_DEBUG)\n",
		       SCHED_DEBUG_FILE);
	} else {
		if (uf.count)
			printf("# %ld negative or underflowed average(s), the first: %s\n",
			       uf.count, uf.first);
		if (opt.no_monitor)
			printf("ok 2 no_underflow # SKIP --no-monitor\n");
		else
			printf("%s 2 no_underflow\n", uf.count ? "not ok" : "ok");
		leak_ok = leak_check(ncpus);
		printf("%s 3 no_leak\n", leak_ok ? "ok" : "not ok");
	}
	if (have_cgroups)
		remove_cgroups();
	return stress_ok && !uf.count && (leak_ok || !debug_file) ? 0 : 1;
}
