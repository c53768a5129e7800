// SPDX-License-Identifier: GPL-2.0
/*
 * Fork placement of a fork/exit/wait load.
 *
 * One worker per CPU of the test loops fork(); the child _exit()s at once
 * with the CPU it ran on and the worker waitpid()s for it, as UnixBench's
 * spawn test does. Counted: loops, children that ran on a CPU other than
 * their parent's ("remote"), the idle time of the test's CPUs, and the
 * time other work took on them.
 *
 * The same load runs in two setups:
 *
 *   cgroup:  each worker in a new cpu cgroup of its own, a child of the
 *            root. An exiting child keeps its task group, so the
 *            sched_move_task() call in do_exit() ->
 *            sched_autogroup_exit_task() has no group to change.
 *   session: workers in the root cgroup, each in a new session, so each
 *            in an autogroup of its own. An exiting child leaves its
 *            autogroup for the root task group, a real group change,
 *            which every kernel handles in full.
 *
 * Either way each worker has a task group of its own directly below the
 * root one, with the default weight (1024), so load from outside the
 * test competes with both setups alike. On cgroup v2 the worker cgroups
 * are threaded, so the memory and io controllers a host enables below
 * the root charge both setups' workers to the root; pids and cpuset,
 * which apply to threads, still count the cgroup setup's forks, which
 * costs it a little time and moves no child.
 *
 * The test runs on at most -c (default MAX_TEST_CPUS) CPUs that share a
 * last-level cache, one per core, so that its cost (two task groups per
 * worker, each with a cfs_rq and an entity per possible CPU) stays the
 * same on machines of any size.
 *
 * A kernel must treat both alike. Commit eff6c8ce8d4d ("sched/core: Reduce
 * cost of sched_move_task when config autogroup") returned early in the
 * first case; the dying task's utilization then stayed on its CPU, the
 * CPU looked busy to the next fork, children went to the other CPUs and
 * CPUs sat idle: UnixBench spawn lost 10-30 %. The session setup is the
 * control, so one kernel is enough to tell.
 *
 * The setups run back to back in each round, in ABBA order, so that
 * drift hits both alike. The verdict is placement alone (see main());
 * idle time and throughput, what the defect costs, are printed.
 *
 * A FAIL of "placement" means the kernel sent the cgroup setup's children
 * away more than the session setup's, as eff6c8ce8d4d did: worth a report
 * to the scheduler's maintainers with the whole output (its per-round
 * lines), the kernel's version and config, and the machine (CPUs, SMT,
 * virtual or not, what else ran). A SKIP says why no verdict was given.
 *
 * A run killed by SIGKILL leaves its cgroups, which the next run
 * removes, and +cpu in the root's cgroup.subtree_control if it wrote it
 * there, which no later run can know.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest.h"

/*
 * Placement fails when the rounds' differences (cgroup minus session
 * remote %) lean to the cgroup's side so far that chance alone gives it
 * at most RANK_CHANCE of the time, and their median is above this many
 * percentage points (see main()).
 *
 * A kernel without the defect treats both setups alike. Where they are
 * exchangeable, each round's difference is as likely to go either way,
 * and a run fails by chance at most RANK_CHANCE of the time: 5 runs in
 * 1024 (the test has this one check). They are not where more busy
 * vCPUs than host cores stop unseen (the test skips there, see
 * PARALLEL_MIN_SHARE). The margin keeps a small, steady difference
 * between the setups from failing such a kernel.
 */
#define REMOTE_MARGIN_PCT	1.0
#define RANK_CHANCE		(5.0 / 1024)
/*
 * No verdict when other work took more than this share of the test's
 * CPUs, in percent, in the median run of either setup (see main()):
 * halfway between the most a quiet guest showed (under 3 %) and the
 * least a guest with a competing load did (37 %).
 */
#define OTHER_WORK_MAX_PCT	20.0

/*
 * No verdict when the test's CPUs, each in a busy loop with the others,
 * computed less than this share of what each did alone (see
 * parallel_share()), before or after the rounds: about 1 where each has
 * a CPU of its own, about 1/2 where two share one, where a kernel
 * without the defect leaned to the cgroup setup.
 */
#define PARALLEL_MIN_SHARE	0.70

/*
 * Where long is 32-bit, commit 089d84203ad4 ("sched/fair: Fold the
 * sched_avg update"), v7.0, made the removal of an entity's averages
 * from its old cfs_rq (at a task's exit or wakeup migration) add about
 * 2^32 / LOAD_AVG_MAX, some 89,960, to the cfs_rq's load_avg and
 * runnable_avg instead of taking the entity's off. Every child of the
 * test exits, so its CPUs look loaded to every fork, in both setups, and
 * on 32-bit arm guests in the cgroup one more: this test's failure
 * without the defect it looks for.
 * So where long is 32-bit the test reads every cfs_rq's runnable_avg
 * (SCHED_DEBUG_FILE) every WRAP_READ_GAP_US for WRAP_READS reads after
 * the children of parallel_share() exited, and gives no verdict when one
 * reached RUNNABLE_WRAPPED. A removal is applied at the cfs_rq's next
 * update (a tick, an enqueue, or on an idle CPU the blocked-load update,
 * every 32 ms), and the next read, 10 ms later, sees 0.8 of what it
 * added; RUNNABLE_WRAPPED is half of it, what a read one half-life
 * (32 ms) late still sees. A cfs_rq's runnable_avg is at most 1024 for
 * each task runnable below it: 44 of them on one CPU reach it, which the
 * test's busy loops and a quiet machine's threads do not make (one
 * loaded that much skips too: its reason says what such a value most
 * likely means).
 */
#define DEBUGFS			"/sys/kernel/debug"
#define SCHED_DEBUG_FILE	DEBUGFS "/sched/debug"
/* The largest PELT divider, kernel/sched/sched-pelt.h's LOAD_AVG_MAX. */
#define LOAD_AVG_MAX		47742
#define RUNNABLE_WRAPPED	((unsigned long)((1ULL << 31) / LOAD_AVG_MAX))
#define WRAP_READS		20
#define WRAP_READ_GAP_US	10000

#define MAX_ROUNDS		99
/* At most this many CPUs (one per core, of one last-level cache) run the test. */
#define MAX_TEST_CPUS		8

enum setup { SETUP_CGROUP, SETUP_SESSION, NR_SETUPS };
static const char * const setup_name[NR_SETUPS] = { "cgroup", "session" };

/* The test's results, in TAP order; their names never change. */
enum check { CHECK_PLACEMENT, NR_CHECKS };
static const char * const check_name[NR_CHECKS] = { "placement parity" };

struct worker_result {
	unsigned long loops;
	unsigned long remote;
	int fork_errno;
	const char *failed_call;	/* a worker's call that failed, and its errno */
	int failed_errno;
	bool affinity_reset;	/* the cgroup move changed the worker's CPUs */
	int child_cpu;		/* written by each child before it exits */
	bool no_autogroup;	/* a session worker found no autogroup */
};

struct run_result {
	double loops_per_s;
	double idle_pct;
	double remote_pct;
	double other_pct;	/* CPU time of the test's CPUs that others took */
};

#define DEFAULT_DURATION_S	2
#define DEFAULT_ROUNDS		10

static struct {
	int duration_s;
	int rounds;
	int nr_workers;
	int max_cpus;
	int only_setup;		/* -s: one setup, figures only; else -1 */
} opt = { .duration_s = DEFAULT_DURATION_S, .rounds = DEFAULT_ROUNDS,
	  .max_cpus = MAX_TEST_CPUS, .only_setup = -1 };

static cpu_set_t *cpus;			/* the test's CPUs, CPU_ALLOC()ed */
static size_t cpus_size;
static int nr_usable_cpus;		/* before the test chose its CPUs */
static char cpu_root[PATH_MAX];		/* root of the cpu controller's hierarchy */
static char (*worker_cgroup)[PATH_MAX];	/* one per worker, empty when none exists */
static bool enabled_cpu_controller;	/* we wrote +cpu to the root's subtree_control */
static pid_t *workers;
static struct worker_result *shared;	/* one slot per worker, MAP_SHARED */
static sigset_t stop_signals, waited_signals;
static pid_t test_pid;

/* Read a whole small file; returns bytes read or -1. */
static ssize_t read_text(const char *path, char *buf, size_t size)
{
	ssize_t len;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len >= 0)
		buf[len] = '\0';
	return len;
}

/* dir/name into path (PATH_MAX bytes); false when it does not fit. */
static bool path_join(char *path, const char *dir, const char *name)
{
	int len = snprintf(path, PATH_MAX, "%s/%s", dir, name);

	return len > 0 && len < PATH_MAX;
}

static int write_text(const char *path, const char *text)
{
	ssize_t len = strlen(text);
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) != len)
		ret = -1;
	close(fd);
	return ret;
}

static int write_pid(const char *dir, pid_t pid)
{
	char path[PATH_MAX], text[24];

	snprintf(text, sizeof(text), "%d\n", pid);
	if (!path_join(path, dir, "cgroup.procs"))
		return -1;
	return write_text(path, text);
}

#define AUTOGROUP_SYSCTL	"/proc/sys/kernel/sched_autogroup_enabled"

/* The calling task is in an autogroup (it has a session of its own). */
static bool in_autogroup(void)
{
	char text[128];

	return read_text("/proc/self/autogroup", text, sizeof(text)) > 0 &&
	       !strncmp(text, "/autogroup-", strlen("/autogroup-"));
}

/* Reap every descendant: workers, and children they left when killed
 * (we are their subreaper).
 */
static void reap_all(void)
{
	while (waitpid(-1, NULL, __WALL) > 0 || errno == EINTR)
		;
}

static void kill_workers(void)
{
	int i;

	for (i = 0; workers && i < opt.nr_workers; i++)
		if (workers[i] > 0)
			kill(workers[i], SIGKILL);
	reap_all();
	for (i = 0; workers && i < opt.nr_workers; i++)
		workers[i] = 0;
}

static void remove_worker_cgroups(void)
{
	char path[PATH_MAX];
	int i, tries;

	for (i = 0; worker_cgroup && i < opt.nr_workers; i++) {
		if (!worker_cgroup[i][0])
			continue;
		/* Tasks that just died can keep a cgroup busy for a moment. */
		for (tries = 0; tries < 100; tries++) {
			if (!rmdir(worker_cgroup[i]) || errno == ENOENT)
				break;
			usleep(10000);
		}
		if (tries == 100)
			ksft_print_msg("cannot remove %s: %s\n", worker_cgroup[i],
				       strerror(errno));
		worker_cgroup[i][0] = '\0';
	}
	if (enabled_cpu_controller &&
	    path_join(path, cpu_root, "cgroup.subtree_control")) {
		write_text(path, "-cpu");
		enabled_cpu_controller = false;
	}
}

static void cleanup(void)
{
	kill_workers();
	remove_worker_cgroups();
}

static __noreturn __printf(1, 2) void bail_out(const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cleanup();
	ksft_exit_fail_msg("%s\n", msg);
}

/* After the plan: every result skipped for one reason, exit status 4. */
static __noreturn void skip_verdicts(const char *why)
{
	int i;

	cleanup();
	ksft_print_msg("%s\n", why);
	for (i = 0; i < NR_CHECKS; i++)
		ksft_test_result_skip("%s\n", check_name[i]);
	ksft_print_cnts();
	exit(KSFT_SKIP);
}

static __noreturn __printf(1, 2) void skip(const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cleanup();
	ksft_exit_skip("%s\n", msg);
}

/* A termination signal that arrived while we were busy ends the test. */
static void check_stop_signals(void)
{
	struct timespec zero = { 0 };
	int sig;

	sig = sigtimedwait(&stop_signals, NULL, &zero);
	if (sig > 0)
		bail_out("stopped by signal %d (%s)", sig, strsignal(sig));
}

/* Whether a space- or newline-separated list holds this very word. */
static bool has_word(char *list, const char *word)
{
	char *tok, *save;

	for (tok = strtok_r(list, "\n ", &save); tok; tok = strtok_r(NULL, "\n ", &save))
		if (!strcmp(tok, word))
			return true;
	return false;
}

/*
 * Find the root of the cpu controller's hierarchy: cgroup v2 with "cpu"
 * in its controllers, else a v1 hierarchy mounted with the cpu option.
 * Only a mount of the hierarchy's root will do (mountinfo's root "/").
 */
static bool find_cpu_root(void)
{
	char line[4096], root[PATH_MAX], mnt[PATH_MAX], fstype[64], opts[1024];
	char path[PATH_MAX], text[512];
	bool found = false;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");
		char *tok, *save;

		if (!sep || sscanf(line, "%*d %*d %*s %4095s %4095s", root, mnt) != 2)
			continue;
		if (sscanf(sep, " - %63s %*s %1023s", fstype, opts) != 2 ||
		    strcmp(root, "/"))
			continue;
		if (!strcmp(fstype, "cgroup2")) {
			if (!path_join(path, mnt, "cgroup.controllers") ||
			    read_text(path, text, sizeof(text)) < 0)
				continue;
			found = has_word(text, "cpu");
		} else if (!strcmp(fstype, "cgroup")) {
			for (tok = strtok_r(opts, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				found |= !strcmp(tok, "cpu");
		}
		if (found)
			snprintf(cpu_root, sizeof(cpu_root), "%s", mnt);
	}
	fclose(f);
	return found;
}

/*
 * The session setup relies on its workers being in the root task group,
 * the only one in which autogroup applies. Inside a cgroup namespace the
 * hierarchy's visible root is some other group. Files that only the real
 * root lacks (v2) or has (v1) tell them apart.
 */
static bool cpu_root_is_root_task_group(void)
{
	char path[PATH_MAX];
	bool v2;

	v2 = path_join(path, cpu_root, "cgroup.controllers") && !access(path, F_OK);
	if (!path_join(path, cpu_root, v2 ? "cgroup.type" : "release_agent"))
		return false;
	return v2 ? access(path, F_OK) : !access(path, F_OK);
}

/*
 * A run killed by SIGKILL (the OOM killer, a harness's hard timeout)
 * leaves its cgroups behind. Those of a test whose PID no longer exists
 * go now; rmdir() takes only empty ones, so a cgroup that still holds a
 * task stays. A live run in another PID namespace that shares this
 * cgroupfs looks dead from here, and its cgroups are empty while its
 * session setup runs: that run would then fail to move its workers.
 */
static void remove_stale_cgroups(void)
{
	char path[PATH_MAX];
	int pid, nr, removed = 0;
	struct dirent *entry;
	DIR *dir;

	dir = opendir(cpu_root);
	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		if (sscanf(entry->d_name, "fork_placement_test.%d.%d", &pid, &nr) != 2 ||
		    pid <= 0 || !kill(pid, 0) || errno != ESRCH ||
		    !path_join(path, cpu_root, entry->d_name))
			continue;
		if (!rmdir(path))
			removed++;
	}
	closedir(dir);
	if (removed)
		ksft_print_msg("removed %d cgroups that a killed run left\n", removed);
}

/*
 * One cpu cgroup per worker, each a child of the root like an autogroup.
 * Before the plan: a cgroupfs that cannot take one is a reason to skip.
 */
static void make_worker_cgroups(void)
{
	char path[PATH_MAX], name[64], text[512];
	bool v2, warned = false;
	int i;

	worker_cgroup = calloc(opt.nr_workers, sizeof(*worker_cgroup));
	if (!worker_cgroup)
		ksft_exit_fail_msg("out of memory\n");
	v2 = path_join(path, cpu_root, "cgroup.subtree_control") && !access(path, F_OK);
	/* cgroup v2: children get the cpu controller only when asked for. */
	if (v2 && read_text(path, text, sizeof(text)) >= 0 && !has_word(text, "cpu")) {
		if (write_text(path, "+cpu"))
			skip("cannot enable the cpu controller in %s: %s",
			     path, strerror(errno));
		enabled_cpu_controller = true;
	}
	for (i = 0; i < opt.nr_workers; i++) {
		snprintf(name, sizeof(name), "fork_placement_test.%d.%d", getpid(), i);
		if (!path_join(path, cpu_root, name))
			bail_out("path too long: %s/%s", cpu_root, name);
		if (mkdir(path, 0755)) {
			/* A read-only or not delegated cgroupfs, as in containers. */
			if (errno == EROFS || errno == EACCES || errno == EPERM)
				skip("cannot create a cgroup in %s: %s", cpu_root,
				     strerror(errno));
			bail_out("mkdir %s: %s", path, strerror(errno));
		}
		snprintf(worker_cgroup[i], sizeof(worker_cgroup[i]), "%s", path);
		/*
		 * Threaded: the domain controllers enabled below the root
		 * (memory, io) then do not apply to the worker, which is
		 * charged to the root like a session worker. Without it the
		 * setups still differ in the task group; they differ in
		 * memory cgroup charges at fork and exit as well.
		 */
		if (v2 && (!path_join(path, worker_cgroup[i], "cgroup.type") ||
			   write_text(path, "threaded")) && !warned) {
			ksft_print_msg("%s stays a domain cgroup: %s\n", worker_cgroup[i],
				       strerror(errno));
			warned = true;
		}
	}
}

/* Sum of idle+iowait and of all ticks over the CPUs in the test's set. */
static void read_cpu_ticks(long long *idle, long long *total)
{
	char line[512];
	FILE *f;

	*idle = *total = 0;
	f = fopen("/proc/stat", "re");
	if (!f)
		bail_out("/proc/stat: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		long long v[8] = { 0 };
		int cpu, i;

		/* "cpuN ..." only: "%d" would read the all-CPU line's first number. */
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9' ||
		    sscanf(line + 3, "%d %lld %lld %lld %lld %lld %lld %lld %lld",
			   &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
			   &v[6], &v[7]) < 5 || !CPU_ISSET_S(cpu, cpus_size, cpus))
			continue;
		for (i = 0; i < 8; i++)
			*total += v[i];
		*idle += v[3] + v[4];
	}
	fclose(f);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static __noreturn void worker_failed(struct worker_result *res, const char *call)
{
	res->failed_errno = errno;
	res->failed_call = call;
	_exit(1);
}

static __noreturn void worker(int start_fd, struct worker_result *res)
{
	cpu_set_t *mine = CPU_ALLOC(cpus_size * 8);
	double deadline;
	char go;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		worker_failed(res, "prctl(PR_SET_PDEATHSIG)");
	if (getppid() != test_pid)	/* the test died before PDEATHSIG was set */
		_exit(1);
	if (read(start_fd, &go, 1) != 0)	/* EOF: the test closed it, go */
		_exit(1);
	/*
	 * The test moved us before it said go. Where the new cgroup has a
	 * cpuset of its own (cgroup v2 with +cpuset at the root), the move
	 * gave us that cpuset's CPUs: back to the test's.
	 */
	if (!mine)
		worker_failed(res, "CPU_ALLOC");
	if (sched_getaffinity(0, cpus_size, mine))
		worker_failed(res, "sched_getaffinity");
	if (!CPU_EQUAL_S(cpus_size, mine, cpus)) {
		res->affinity_reset = true;
		if (sched_setaffinity(0, cpus_size, cpus))
			worker_failed(res, "sched_setaffinity");
	}
	CPU_FREE(mine);
	deadline = now_s() + opt.duration_s;
	while (now_s() < deadline) {
		int cpu = sched_getcpu(), status;
		pid_t pid;

		/* Through shared memory: an exit status holds CPUs < 256 only. */
		res->child_cpu = -1;
		pid = fork();
		if (pid == 0) {
			res->child_cpu = sched_getcpu();
			_exit(0);
		}
		if (pid < 0) {
			res->fork_errno = errno;
			_exit(1);
		}
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				_exit(1);
		res->loops++;
		if (res->child_cpu >= 0 && res->child_cpu != cpu)
			res->remote++;
	}
	_exit(0);
}

/*
 * Wait for the workers; termination signals end the test. Returns the CPU
 * time, in seconds, that the workers and the children they reaped used.
 */
static double wait_workers(double deadline)
{
	int left = opt.nr_workers, status, i;
	double cpu_s = 0;
	struct rusage ru;

	while (left) {
		struct timespec timeout = { .tv_nsec = 100 * 1000 * 1000 };
		siginfo_t info;
		pid_t pid;
		int sig;

		sig = sigtimedwait(&waited_signals, &info, &timeout);
		if (sig > 0 && sig != SIGCHLD)
			bail_out("stopped by signal %d (%s)", sig, strsignal(sig));
		while ((pid = wait4(-1, &status, WNOHANG, &ru)) > 0) {
			for (i = 0; i < opt.nr_workers; i++) {
				if (workers[i] != pid)
					continue;
				workers[i] = 0;
				left--;
				cpu_s += ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
					 ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
				if (shared[i].fork_errno)
					bail_out("fork: %s", strerror(shared[i].fork_errno));
				if (shared[i].failed_call)
					bail_out("worker %d: %s: %s", pid, shared[i].failed_call,
						 strerror(shared[i].failed_errno));
				if (!WIFEXITED(status) || WEXITSTATUS(status))
					bail_out("worker %d failed (status 0x%x)", pid, status);
			}
		}
		if (now_s() > deadline)
			bail_out("workers did not finish in time");
	}
	return cpu_s;
}

static void run_setup(enum setup setup, struct run_result *out)
{
	static bool affinity_reset_told;
	long long idle0, total0, idle1, total1;
	unsigned long loops = 0, remote = 0;
	int start[2], i;
	double t0, t1, cpu_s;

	memset(shared, 0, sizeof(*shared) * opt.nr_workers);
	if (pipe2(start, O_CLOEXEC))
		bail_out("pipe: %s", strerror(errno));
	for (i = 0; i < opt.nr_workers; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			close(start[0]);
			close(start[1]);
			bail_out("fork: %s", strerror(errno));
		}
		if (pid == 0) {
			sigprocmask(SIG_UNBLOCK, &waited_signals, NULL);
			close(start[1]);
			if (setup == SETUP_SESSION) {
				if (setsid() < 0)
					_exit(1);
				shared[i].no_autogroup = !in_autogroup();
			}
			worker(start[0], &shared[i]);
		}
		workers[i] = pid;
		if (write_pid(setup == SETUP_CGROUP ? worker_cgroup[i] : cpu_root, pid)) {
			close(start[0]);
			close(start[1]);
			bail_out("moving worker %d to the %s setup: %s", pid,
				 setup_name[setup], strerror(errno));
		}
	}
	close(start[0]);
	check_stop_signals();

	read_cpu_ticks(&idle0, &total0);
	t0 = now_s();
	close(start[1]);	/* read() returns 0: go */
	cpu_s = wait_workers(t0 + opt.duration_s + 30);
	t1 = now_s();
	read_cpu_ticks(&idle1, &total1);

	for (i = 0; i < opt.nr_workers; i++) {
		/* Both setups would then be alike: no verdict either way. */
		if (shared[i].no_autogroup)
			skip_verdicts("a session worker got no autogroup");
		if (shared[i].affinity_reset && !affinity_reset_told) {
			ksft_print_msg("moving a worker to the %s setup changed %s\n",
				       setup_name[setup], "its CPUs (a cpuset?): set back");
			affinity_reset_told = true;
		}
		loops += shared[i].loops;
		remote += shared[i].remote;
	}
	out->loops_per_s = loops / (t1 - t0);
	/* idle can step backwards with NO_HZ accounting: signed, clamped. */
	out->idle_pct = total1 > total0 ?
		100.0 * (idle1 - idle0) / (total1 - total0) : 0;
	if (out->idle_pct < 0)
		out->idle_pct = 0;
	out->remote_pct = loops ? 100.0 * remote / loops : 0;
	/* Neither idle nor the test's: other work on the test's CPUs. */
	out->other_pct = 100.0 - out->idle_pct -
			 100.0 * cpu_s / ((t1 - t0) * CPU_COUNT_S(cpus_size, cpus));
	if (out->other_pct < 0)
		out->other_pct = 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double s[MAX_ROUNDS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/*
 * Wilcoxon's signed-rank sum of the rounds' differences: the ranks, by
 * size, of the positive ones (ties share their mean rank; a zero counts
 * as not positive, which can only lower the sum).
 */
static double signed_rank_sum(const double *d, int n)
{
	double w = 0;
	int i, j, below, equal;

	for (i = 0; i < n; i++) {
		if (d[i] <= 0)
			continue;
		below = 0;
		equal = 0;
		for (j = 0; j < n; j++) {
			below += (d[j] < 0 ? -d[j] : d[j]) < d[i];
			equal += (d[j] < 0 ? -d[j] : d[j]) == d[i];
		}
		w += below + (equal + 1) / 2.0;
	}
	return w;
}

/* 2^-n, without libm. */
static double chance_of_all(int n)
{
	double c = 1;

	while (n-- > 0)
		c /= 2;
	return c;
}

/*
 * The chance that n rounds without a defect, each as likely to go
 * either way, give a signed-rank sum of w or more: the share of the 2^n
 * subsets of the ranks 1..n whose sum is at least w.
 */
static double signed_rank_chance(int n, double w)
{
	double count[MAX_ROUNDS * (MAX_ROUNDS + 1) / 2 + 1] = { 1 };
	double above = 0;
	int i, sum, top = 0;

	for (i = 1; i <= n; i++) {
		for (sum = top; sum >= 0; sum--)
			count[sum + i] += count[sum];
		top += i;
	}
	for (sum = top; sum >= w; sum--)
		above += count[sum];
	return above * chance_of_all(n);
}

static double min_of(const double *v, int n)
{
	double m = v[0];

	while (--n > 0)
		m = v[n] < m ? v[n] : m;
	return m;
}

static double max_of(const double *v, int n)
{
	double m = v[0];

	while (--n > 0)
		m = v[n] > m ? v[n] : m;
	return m;
}

static void print_summary(enum setup s, const char *name, const double *v)
{
	ksft_print_msg("summary setup=%s %s=%.2f min=%.2f max=%.2f\n",
		       setup_name[s], name, median(v, opt.rounds),
		       min_of(v, opt.rounds), max_of(v, opt.rounds));
}

static void print_help(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [-t seconds] [-r rounds] [-c cpus] [-n workers] [-s setup] [-h]\n"
		"  -t  length of each run (default %d)\n"
		"  -r  rounds; each runs both setups (default %d, at most %d;\n"
		"      fewer than 8 give figures but no verdict)\n"
		"  -c  at most this many CPUs, one per core, of one last-level cache (default %d)\n"
		"  -n  workers (default: one per CPU of the test)\n"
		"  -s  run only this setup, cgroup or session: figures, no verdicts\n"
		"      (-s cgroup needs no autogroup)\n"
		"Needs root, the cpu cgroup controller and autogroup.\n",
		prog, DEFAULT_DURATION_S, DEFAULT_ROUNDS, MAX_ROUNDS, MAX_TEST_CPUS);
}

static int parse_int(const char *s, int min, int max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max)
		return -1;
	return v;
}

static void parse_options(int argc, char **argv)
{
	int c, i, value = 0;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help")) {
			print_help(stdout, argv[0]);
			exit(KSFT_PASS);
		}
	}

	while ((c = getopt(argc, argv, "t:r:c:n:s:h")) != -1) {
		switch (c) {
		case 't':
			value = parse_int(optarg, 1, 3600);
			break;
		case 'r':
			value = parse_int(optarg, 1, MAX_ROUNDS);
			break;
		case 'c':
			value = parse_int(optarg, 2, 1 << 20);
			break;
		case 'n':
			value = parse_int(optarg, 1, 4096);
			break;
		case 's':
			value = -1;
			for (i = 0; i < NR_SETUPS; i++)
				if (!strcmp(optarg, setup_name[i]))
					value = i;
			break;
		case 'h':
			print_help(stdout, argv[0]);
			exit(KSFT_PASS);
		default:
			print_help(stderr, argv[0]);
			exit(KSFT_FAIL);
		}
		if (value < 0) {
			fprintf(stderr, "%s: bad value for -%c: %s\n", argv[0], c, optarg);
			print_help(stderr, argv[0]);
			exit(KSFT_FAIL);
		}
		if (c == 't')
			opt.duration_s = value;
		else if (c == 'r')
			opt.rounds = value;
		else if (c == 'c')
			opt.max_cpus = value;
		else if (c == 'n')
			opt.nr_workers = value;
		else if (c == 's')
			opt.only_setup = value;
	}
	if (optind != argc) {
		print_help(stderr, argv[0]);
		exit(KSFT_FAIL);
	}
}

/* The usable CPUs, in a set as large as the kernel's CPU mask needs. */
static int get_usable_cpus(void)
{
	long nr = sysconf(_SC_NPROCESSORS_CONF);

	for (nr = nr > 0 ? nr : 1024; nr <= (1L << 20); nr *= 2) {
		cpus = CPU_ALLOC(nr);
		if (!cpus)
			return -1;
		cpus_size = CPU_ALLOC_SIZE(nr);
		if (!sched_getaffinity(0, cpus_size, cpus))
			return 0;
		CPU_FREE(cpus);
		cpus = NULL;
		if (errno != EINVAL)	/* EINVAL: the kernel's mask is larger */
			return -1;
	}
	return -1;
}

/* A sysfs CPU list ("0-3,8") into set; false when it is not one. */
static bool parse_cpu_list(char *list, cpu_set_t *set)
{
	char *tok, *save, *end;
	long first, last;

	CPU_ZERO_S(cpus_size, set);
	for (tok = strtok_r(list, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save)) {
		first = strtol(tok, &end, 10);
		last = first;
		if (end != tok && *end == '-')
			last = strtol(end + 1, &end, 10);
		if (end == tok || *end || first < 0 || last < first)
			return false;
		if (last >= (long)cpus_size * 8)	/* beyond the kernel's mask */
			last = (long)cpus_size * 8 - 1;
		for (; first <= last; first++)
			CPU_SET_S(first, cpus_size, set);
	}
	return true;
}

/* The CPUs that share cpu's cache of the highest level, into set. */
static bool get_llc_cpus(int cpu, cpu_set_t *set)
{
	char path[PATH_MAX], text[4096], list[4096] = "";
	int index, level, top = 0;

	for (index = 0; ; index++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, index);
		if (read_text(path, text, sizeof(text)) <= 0)
			break;
		level = atoi(text);
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
			 cpu, index);
		if (level >= top && read_text(path, text, sizeof(text)) > 0) {
			top = level;
			snprintf(list, sizeof(list), "%s", text);
		}
	}
	return list[0] && parse_cpu_list(list, set);
}

/*
 * Keep one CPU of each core in set, the first: SMT siblings share a
 * core's pipes and would not compute at once as cores do. Unless that
 * leaves fewer than two (a guest of one core's threads), where the
 * threads are the test's CPUs and parallel_share() judges them.
 */
static void one_cpu_per_core(cpu_set_t *set)
{
	cpu_set_t *cores = CPU_ALLOC(cpus_size * 8), *siblings = CPU_ALLOC(cpus_size * 8);
	char path[PATH_MAX], text[4096];
	int cpu, other;

	if (!cores || !siblings)
		goto out;
	memcpy(cores, set, cpus_size);
	for (cpu = 0; cpu < (int)cpus_size * 8; cpu++) {
		if (!CPU_ISSET_S(cpu, cpus_size, cores))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		CPU_ZERO_S(cpus_size, siblings);
		if (read_text(path, text, sizeof(text)) <= 0 ||
		    !parse_cpu_list(text, siblings))
			continue;
		for (other = cpu + 1; other < (int)cpus_size * 8; other++)
			if (CPU_ISSET_S(other, cpus_size, siblings))
				CPU_CLR_S(other, cpus_size, cores);
	}
	if (CPU_COUNT_S(cpus_size, cores) >= 2)
		memcpy(set, cores, cpus_size);
out:
	CPU_FREE(cores);
	CPU_FREE(siblings);
}

/*
 * The test's CPUs: at most opt.max_cpus usable ones, one per core, that
 * share the first usable CPU's last-level cache, or the first usable
 * ones when the kernel shows no cache shared by two of them (QEMU's
 * arm64 guests). The test and its workers are bound to them.
 */
static void choose_test_cpus(void)
{
	cpu_set_t *llc = CPU_ALLOC(cpus_size * 8);
	int cpu, first = -1, taken = 0;

	nr_usable_cpus = CPU_COUNT_S(cpus_size, cpus);
	for (cpu = 0; cpu < (int)cpus_size * 8 && first < 0; cpu++)
		if (CPU_ISSET_S(cpu, cpus_size, cpus))
			first = cpu;
	if (llc && first >= 0 && get_llc_cpus(first, llc)) {
		CPU_AND_S(cpus_size, llc, llc, cpus);
		if (CPU_COUNT_S(cpus_size, llc) >= 2)
			memcpy(cpus, llc, cpus_size);
	}
	CPU_FREE(llc);
	one_cpu_per_core(cpus);
	for (cpu = 0; cpu < (int)cpus_size * 8; cpu++) {
		if (!CPU_ISSET_S(cpu, cpus_size, cpus))
			continue;
		if (taken < opt.max_cpus)
			taken++;
		else
			CPU_CLR_S(cpu, cpus_size, cpus);
	}
	if (sched_setaffinity(0, cpus_size, cpus))
		ksft_exit_fail_msg("sched_setaffinity: %s\n", strerror(errno));
}

/* The test's CPUs as a list ("0-3,6"), for the diagnostics. */
static const char *cpu_list(void)
{
	static char list[256];
	int cpu, last, len = 0, ncpus = cpus_size * 8;

	for (cpu = 0; cpu < ncpus && len < (int)sizeof(list) - 24; cpu++) {
		if (!CPU_ISSET_S(cpu, cpus_size, cpus))
			continue;
		for (last = cpu; last + 1 < ncpus &&
		     CPU_ISSET_S(last + 1, cpus_size, cpus); last++)
			;
		len += snprintf(list + len, sizeof(list) - len,
				last > cpu ? "%s%d-%d" : "%s%d", len ? "," : "", cpu, last);
		cpu = last;
	}
	return list;
}

/*
 * Count in a busy loop for this long; returns the count. Each step loads
 * and stores the count in memory (the empty asm says it may read and
 * change it), so the loop waits on its own store.
 */
static unsigned long spin_for(double seconds)
{
	double end = now_s() + seconds;
	unsigned long count = 0;
	int i;

	while (now_s() < end)
		for (i = 0; i < 4096; i++) {
			count++;
			asm volatile("" : "+m" (count));
		}
	return count;
}

/* What spin_on_cpus() could not do, and its errno; 0 for a child's exit. */
static const char *spin_failed_call;
static int spin_failed_errno;

/*
 * Spin for seconds on the test's CPU number only (0 for the first), or
 * on all of them at once (only < 0), one child bound to each; the counts
 * go in count[], by test CPU. False, with spin_failed_call set, when a
 * child could not be made or bound.
 */
static bool spin_on_cpus(int only, double seconds, unsigned long *count)
{
	cpu_set_t *one = CPU_ALLOC(cpus_size * 8);
	int start[2], i, cpu, status;
	bool ok = true;
	pid_t pid;

	if (!one || pipe2(start, O_CLOEXEC)) {
		spin_failed_call = one ? "pipe2" : "CPU_ALLOC";
		spin_failed_errno = one ? errno : ENOMEM;
		CPU_FREE(one);
		return false;
	}
	for (i = -1, cpu = 0; cpu < (int)cpus_size * 8; cpu++) {
		char go;

		if (!CPU_ISSET_S(cpu, cpus_size, cpus) || (++i != only && only >= 0))
			continue;
		pid = fork();
		if (pid < 0) {
			spin_failed_call = "fork";
			spin_failed_errno = errno;
			ok = false;
			break;
		}
		if (pid == 0) {
			CPU_ZERO_S(cpus_size, one);
			CPU_SET_S(cpu, cpus_size, one);
			close(start[1]);
			if (sched_setaffinity(0, cpus_size, one) ||
			    read(start[0], &go, 1) != 0)
				_exit(1);
			count[i] = spin_for(seconds);
			_exit(0);
		}
	}
	close(start[0]);
	close(start[1]);	/* read() returns 0: go */
	while ((pid = waitpid(-1, &status, 0)) > 0 || errno == EINTR) {
		if (pid > 0 && (!WIFEXITED(status) || WEXITSTATUS(status)) && ok) {
			spin_failed_call = "a child bound to one test CPU";
			spin_failed_errno = 0;
			ok = false;
		}
	}
	CPU_FREE(one);
	return ok;
}

/*
 * The verdict needs CPUs that compute at once, as a machine's do. The
 * vCPUs of a guest that has more of them than its host has CPUs free
 * stop while the guest's kernel sees them run (no steal time under TCG,
 * nor from a host that does not report it), and there the rounds of a
 * kernel without the defect leaned to the cgroup setup. What each test
 * CPU counts in a busy loop with all of them at once, over what it
 * counted alone just before, averaged over the test's CPUs: about 1
 * where each has a CPU of its own, about 1/2 where four share two. Each
 * CPU is its own yardstick, so CPUs of different speeds (a faster first
 * core, a host whose vCPUs run at different speeds) do not lower it; a
 * core that runs faster alone (turbo) does, by what it loses at once.
 * The median of three tries, -1 when the children could not run.
 */
#define PARALLEL_SPIN_S		0.2
#define PARALLEL_TRIES		3
static double parallel_share(void)
{
	int nr = CPU_COUNT_S(cpus_size, cpus), i, try;
	double share[PARALLEL_TRIES], sum;
	unsigned long *alone, *count;

	alone = mmap(NULL, sizeof(*alone) * nr * 2, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (alone == MAP_FAILED) {
		spin_failed_call = "mmap";
		spin_failed_errno = errno;
		return -1;
	}
	count = alone + nr;
	for (try = 0; try < PARALLEL_TRIES; try++) {
		for (i = 0; i < nr; i++) {
			if (!spin_on_cpus(i, PARALLEL_SPIN_S, alone))
				goto out;
			if (!alone[i]) {
				spin_failed_call = "a busy loop that never ran";
				spin_failed_errno = 0;
				goto out;
			}
		}
		if (!spin_on_cpus(-1, PARALLEL_SPIN_S, count))
			goto out;
		for (sum = 0, i = 0; i < nr; i++)
			sum += (double)count[i] / alone[i];
		share[try] = sum / nr;
	}
out:
	munmap(alone, sizeof(*alone) * nr * 2);
	return try == PARALLEL_TRIES ? median(share, PARALLEL_TRIES) : -1;
}

/*
 * The largest runnable_avg of any cfs_rq in SCHED_DEBUG_FILE into *max;
 * false, errno set, when the file cannot be read or has no such line.
 */
static bool max_runnable_avg(unsigned long *max)
{
	char line[512], *key, *colon;
	bool found = false;
	long long v;
	FILE *f;

	f = fopen(SCHED_DEBUG_FILE, "re");
	if (!f)
		return false;
	*max = 0;
	/*
	 * "  .runnable_avg    : N", also "removed." and "se->avg." ones;
	 * removed.runnable_avg is printed signed.
	 */
	while (fgets(line, sizeof(line), f)) {
		key = strstr(line, ".runnable_avg ");
		colon = key ? strchr(key, ':') : NULL;
		if (!colon)
			continue;
		v = strtoll(colon + 1, NULL, 10);
		if (v > 0 && (unsigned long long)v > *max)
			*max = v;
		found = true;
	}
	fclose(f);
	if (!found)
		errno = ENODATA;
	return found;
}

/*
 * Where long is 32-bit: the largest runnable_avg of any cfs_rq over
 * WRAP_READS reads (a removal is applied at the cfs_rq's next update)
 * into *peak; false, errno set, if the file cannot be read.
 */
static bool runnable_avg_after_exits(unsigned long *peak)
{
	unsigned long v;
	int i;

	*peak = 0;
	for (i = 0; i < WRAP_READS; i++) {
		if (i)
			usleep(WRAP_READ_GAP_US);
		if (!max_runnable_avg(&v))
			return false;
		if (v > *peak)
			*peak = v;
	}
	return true;
}

#define WRAP_UNSEEN "the 32-bit removal wrap cannot be looked for; no verdict here"

/*
 * Where debugfs is not mounted (a lab's rootfs): mount it for this test
 * alone, in a mount namespace of its own that ends with it. False, errno
 * set, where that cannot be done.
 */
static bool mount_debugfs_privately(void)
{
	if (unshare(CLONE_NEWNS))
		return false;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return false;
	return !mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
}

/* Before the plan, where long is 32-bit: skip where the removal wraps. */
static void check_removal_wrap(void)
{
	unsigned long runnable;

	if (access(SCHED_DEBUG_FILE, R_OK) && errno == ENOENT) {
		if (!mount_debugfs_privately())
			ksft_exit_skip("%s: %s: %s\n",
				       "debugfs is not mounted, nor could it be for this test",
				       strerror(errno), WRAP_UNSEEN);
		ksft_print_msg("%s, %s\n", "debugfs mounted for this test alone",
			       "in a mount namespace of its own");
	}
	if (!runnable_avg_after_exits(&runnable))
		ksft_exit_skip("%s: %s: %s\n", SCHED_DEBUG_FILE, strerror(errno), WRAP_UNSEEN);
	ksft_print_msg("largest runnable_avg of a cfs_rq after children exited %lu, %s %lu\n",
		       runnable, "wrapped from", RUNNABLE_WRAPPED);
	/* -s gives figures only: they may still be wanted there. */
	if (runnable >= RUNNABLE_WRAPPED && opt.only_setup < 0)
		ksft_exit_skip("%s (%lu), %s: %s\n",
			       "a cfs_rq's runnable_avg wrapped after children exited", runnable,
			       "as 32-bit load removal does since commit 089d84203ad4",
			       "no verdict here");
}

/*
 * Why the session setup's workers would not get task groups of their
 * own, or NULL. Autogroup applies only when it is built, enabled, and
 * autogroup_create() did not fall back to the root task group.
 */
static const char *autogroup_unusable(void)
{
	char text[4096];
	int status;
	pid_t pid;

	if (access("/proc/self/autogroup", F_OK))
		return "no autogroup: the kernel has CONFIG_SCHED_AUTOGROUP=n";
	if (read_text(AUTOGROUP_SYSCTL, text, sizeof(text)) > 0) {
		if (atoi(text) != 1)
			return "autogroup is off: echo 1 > " AUTOGROUP_SYSCTL;
	} else if (read_text("/proc/cmdline", text, sizeof(text)) > 0 &&
		   has_word(text, "noautogroup")) {
		/* No sysctl (CONFIG_SYSCTL=n): the boot option is all there is. */
		return "autogroup is off: noautogroup on the kernel command line";
	}
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid == 0)
		_exit(setsid() < 0 || !in_autogroup());
	if (waitpid(pid, &status, 0) != pid)
		ksft_exit_fail_msg("waitpid: %s\n", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return "a new session got no autogroup (autogroup_create() failed?)";
	return NULL;
}

/*
 * The cpu controller's hierarchy is mounted, but only below its root: a
 * container's view of a v1 cpu hierarchy or of cgroup v2. Writes where
 * into where (WHERE_SIZE bytes).
 */
#define WHERE_SIZE	(2 * PATH_MAX + 32)
static bool cpu_mounted_below_root(char *where)
{
	char line[4096], root[PATH_MAX], mnt[PATH_MAX], fstype[64], opts[1024];
	char path[PATH_MAX], text[512];
	char *sep, *tok, *save;
	bool found = false;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*d %*d %*s %4095s %4095s", root, mnt) != 2 ||
		    sscanf(sep, " - %63s %*s %1023s", fstype, opts) != 2 ||
		    !strcmp(root, "/"))
			continue;
		if (!strcmp(fstype, "cgroup2"))
			found = path_join(path, mnt, "cgroup.controllers") &&
				read_text(path, text, sizeof(text)) >= 0 && has_word(text, "cpu");
		for (tok = strtok_r(opts, ",", &save); tok && !strcmp(fstype, "cgroup");
		     tok = strtok_r(NULL, ",", &save))
			found |= !strcmp(tok, "cpu");
		if (found)
			snprintf(where, WHERE_SIZE, "%s, the hierarchy's %s", mnt, root);
	}
	fclose(f);
	return found;
}

/* Everything that can make the test skip, all before the plan. */
static void check_requirements(void)
{
	char text[WHERE_SIZE];
	const char *why;
	double share;

	if (geteuid())
		ksft_exit_skip("needs root to make a cgroup and move tasks\n");
	/* A BPF scheduler may treat the two setups its own way. */
	if (read_text("/sys/kernel/sched_ext/state", text, sizeof(text)) > 0 &&
	    strncmp(text, "disabled", strlen("disabled")))
		ksft_exit_skip("a sched_ext scheduler is loaded (state %.*s): %s\n",
			       (int)strcspn(text, "\n"), text,
			       "the test measures the fair class");
	/* The cgroup setup alone runs without autogroup. */
	if (opt.only_setup != SETUP_CGROUP) {
		why = autogroup_unusable();
		if (why)
			ksft_exit_skip("%s\n", why);
	}
	if (get_usable_cpus())
		ksft_exit_fail_msg("sched_getaffinity: %s\n", strerror(errno));
	if (CPU_COUNT_S(cpus_size, cpus) < 2)
		ksft_exit_skip("needs at least 2 usable CPUs, has %d\n",
			       CPU_COUNT_S(cpus_size, cpus));
	if (!find_cpu_root()) {
		if (cpu_mounted_below_root(text))
			ksft_exit_skip("%s, at %s: a container's view?\n",
				       "the cpu controller is mounted only below its root", text);
		ksft_exit_skip("no cpu controller in cgroup v2 or v1\n");
	}
	if (opt.only_setup != SETUP_CGROUP && !cpu_root_is_root_task_group())
		ksft_exit_skip("%s is not the root cpu cgroup (cgroup namespace?): %s\n",
			       cpu_root, "session workers would not use autogroup");
	/* Before any other skip, so that a host that skips still tidies. */
	remove_stale_cgroups();
	choose_test_cpus();
	share = parallel_share();
	/* A fork() that fails here (a pids limit) is the same as in a run. */
	if (share < 0 && spin_failed_errno)
		ksft_exit_fail_msg("a busy loop on each test CPU: %s: %s\n",
				   spin_failed_call, strerror(spin_failed_errno));
	if (share < 0)
		ksft_exit_fail_msg("a busy loop on each test CPU: %s failed\n",
				   spin_failed_call);
	ksft_print_msg("the test's CPUs at once computed %.2f of what each did alone, %s %.2f\n",
		       share, "before the rounds, at least", PARALLEL_MIN_SHARE);
	/* -s gives figures only: they may still be wanted there. */
	if (share < PARALLEL_MIN_SHARE && opt.only_setup < 0)
		ksft_exit_skip("the test's CPUs do not compute at once (%.2f %s): %s\n",
			       share, "of what each did alone",
			       "vCPUs sharing host CPUs? No verdict here");
	if (sizeof(long) == 4)
		check_removal_wrap();
	if (!opt.nr_workers)
		opt.nr_workers = CPU_COUNT_S(cpus_size, cpus);
	make_worker_cgroups();
}

int main(int argc, char **argv)
{
	double loops[NR_SETUPS][MAX_ROUNDS], idle[NR_SETUPS][MAX_ROUNDS];
	double remote[NR_SETUPS][MAX_ROUNDS];
	double med_loops[NR_SETUPS], med_idle[NR_SETUPS], med_remote[NR_SETUPS];
	double other[NR_SETUPS][MAX_ROUNDS], diff[MAX_ROUNDS], med_diff, med_other;
	double rank_sum, chance, share_after;
	int round, s, more_remote = 0;

	parse_options(argc, argv);
	/*
	 * Signals are taken synchronously (sigtimedwait), never mid-step,
	 * from before the first cgroup exists: one that comes while they
	 * are made ends the test at the first run, cgroups removed.
	 */
	sigemptyset(&stop_signals);
	sigaddset(&stop_signals, SIGINT);
	sigaddset(&stop_signals, SIGTERM);
	sigaddset(&stop_signals, SIGHUP);
	/* A reader of our output that went away: writes fail with EPIPE. */
	sigaddset(&stop_signals, SIGPIPE);
	waited_signals = stop_signals;
	sigaddset(&waited_signals, SIGCHLD);
	sigprocmask(SIG_BLOCK, &waited_signals, NULL);
	ksft_print_header();
	check_requirements();
	ksft_set_plan(NR_CHECKS);
	ksft_print_msg("%d workers on %d of %d usable CPUs (%s), %d rounds of %d s %s %s\n",
		       opt.nr_workers, CPU_COUNT_S(cpus_size, cpus), nr_usable_cpus,
		       cpu_list(), opt.rounds, opt.duration_s,
		       "per setup, cpu controller at", cpu_root);
	test_pid = getpid();
	/* Children of a killed worker are reparented to us and reaped. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		bail_out("prctl(PR_SET_CHILD_SUBREAPER): %s", strerror(errno));

	workers = calloc(opt.nr_workers, sizeof(*workers));
	shared = mmap(NULL, sizeof(*shared) * opt.nr_workers,
		      PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!workers || shared == MAP_FAILED)
		bail_out("out of memory");

	for (round = 0; round < opt.rounds; round++) {
		int i;

		/* ABBA order, so drift during a round hits both setups alike. */
		for (i = 0; i < NR_SETUPS; i++) {
			struct run_result run;

			s = round % 2 ? NR_SETUPS - 1 - i : i;
			if (opt.only_setup >= 0 && s != opt.only_setup)
				continue;
			run_setup(s, &run);
			loops[s][round] = run.loops_per_s;
			idle[s][round] = run.idle_pct;
			remote[s][round] = run.remote_pct;
			other[s][round] = run.other_pct;
			ksft_print_msg("run setup=%s round=%d %s=%.1f %s=%.2f %s=%.2f %s=%.2f\n",
				       setup_name[s], round + 1,
				       "loops_per_s", loops[s][round],
				       "idle_pct", idle[s][round],
				       "remote_pct", remote[s][round],
				       "other_pct", other[s][round]);
		}
	}
	cleanup();
	/* A host that got busy during the rounds: checked again, once. */
	share_after = parallel_share();
	if (share_after < 0)
		bail_out("a busy loop on each test CPU: %s: %s", spin_failed_call,
			 spin_failed_errno ? strerror(spin_failed_errno) : "failed");
	ksft_print_msg("the test's CPUs at once computed %.2f of what each did alone, %s %.2f\n",
		       share_after, "after the rounds, at least", PARALLEL_MIN_SHARE);

	for (s = 0; s < NR_SETUPS; s++) {
		if (opt.only_setup >= 0 && s != opt.only_setup)
			continue;
		med_loops[s] = median(loops[s], opt.rounds);
		med_idle[s] = median(idle[s], opt.rounds);
		med_remote[s] = median(remote[s], opt.rounds);
		print_summary(s, "loops_per_s", loops[s]);
		print_summary(s, "idle_pct", idle[s]);
		print_summary(s, "remote_pct", remote[s]);
	}

	if (opt.only_setup >= 0)
		skip_verdicts("-s ran one setup: figures only");
	/*
	 * Placement decides. Each round ran the setups back to back, so a
	 * round's difference is free of the drift between rounds; without a
	 * defect it is as likely to go either way, and its signed-rank sum
	 * comes out at any given value with a chance that the rounds alone
	 * fix. Fewer than 8 rounds never reach RANK_CHANCE. The margin keeps
	 * a kernel's small, steady difference between the setups (the
	 * revert's residue) from failing it.
	 */
	if (chance_of_all(opt.rounds) > RANK_CHANCE)
		skip_verdicts("too few rounds for a verdict: 8 or more");
	for (round = 0; round < opt.rounds; round++) {
		diff[round] = remote[SETUP_CGROUP][round] - remote[SETUP_SESSION][round];
		more_remote += diff[round] > 0;
	}
	med_diff = median(diff, opt.rounds);
	rank_sum = signed_rank_sum(diff, opt.rounds);
	chance = signed_rank_chance(opt.rounds, rank_sum);
	/* Values go in diagnostics; test names stay the same on every run. */
	ksft_print_msg("remote children %.2f %% (cgroup) vs %.2f %% (session)\n",
		       med_remote[SETUP_CGROUP], med_remote[SETUP_SESSION]);
	ksft_print_msg("cgroup more remote in %d of %d rounds, signed-rank sum %.1f of %d\n",
		       more_remote, opt.rounds, rank_sum, opt.rounds * (opt.rounds + 1) / 2);
	ksft_print_msg("its chance without a defect %.4f, at most %.4f fails\n",
		       chance, RANK_CHANCE);
	ksft_print_msg("median difference %.2f points, margin %.1f\n", med_diff,
		       REMOTE_MARGIN_PCT);
	/* Diagnostics: what the defect costs, and what else ran. */
	ksft_print_msg("idle %.2f %% (cgroup) vs %.2f %% (session)\n",
		       med_idle[SETUP_CGROUP], med_idle[SETUP_SESSION]);
	ksft_print_msg("%.0f loops/s (cgroup) vs %.0f (session), ratio %.3f\n",
		       med_loops[SETUP_CGROUP], med_loops[SETUP_SESSION],
		       med_loops[SETUP_CGROUP] / med_loops[SETUP_SESSION]);
	med_other = median(other[SETUP_CGROUP], opt.rounds);
	if (median(other[SETUP_SESSION], opt.rounds) > med_other)
		med_other = median(other[SETUP_SESSION], opt.rounds);
	ksft_print_msg("other work %.2f %% (cgroup) vs %.2f %% (session) of the CPUs, %s %.0f\n",
		       median(other[SETUP_CGROUP], opt.rounds),
		       median(other[SETUP_SESSION], opt.rounds), "at most",
		       OTHER_WORK_MAX_PCT);
	/*
	 * Under a competing load the session setup, whose children move to
	 * the root group as they exit, sends more of them away than the
	 * cgroup setup, on any kernel: a defect would not show.
	 */
	if (med_other > OTHER_WORK_MAX_PCT)
		skip_verdicts("other work shares the test's CPUs: no verdict under a load");
	if (share_after < PARALLEL_MIN_SHARE)
		skip_verdicts("the test's CPUs do not compute at once after the rounds");
	ksft_test_result(!(chance <= RANK_CHANCE && med_diff > REMOTE_MARGIN_PCT),
			 "%s\n", check_name[CHECK_PLACEMENT]);
	ksft_finished();
}
