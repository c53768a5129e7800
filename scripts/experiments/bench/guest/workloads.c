// SPDX-License-Identifier: GPL-2.0
/*
 * workloads: small loads beside spawn, to see what a change to how dead
 * tasks leave their cfs_rq does to work it was not written for. Each runs
 * for --seconds in the cpu cgroup given by --cgroup (as a systemd service
 * or user slice would), and prints one line
 *
 *   @@@ bench load=<name> metric=<name> value=<number> unit=<unit>
 *
 *   spawn      fork(), the child exits at once, waitpid() (UnixBench spawn)
 *   pipe       two processes bounce a byte over two pipes (round trips/s)
 *   messaging  hackbench-like: 2 groups of 5 senders and 5 receivers, each
 *              sender writing 100-byte messages to every receiver of its
 *              group over pipes (messages/s)
 *   threads    pthread_create() + pthread_join() (threads/s)
 *   exec       fork() + execve() of this static binary, which exits at
 *              once (execs/s)
 *   shell      /bin/sh -c "echo ... | sort | cat >/dev/null": a shell
 *              spawning short commands, as UnixBench shell does (scripts/s)
 *
 * Wakeup-heavy loads, run only when named (each wakeup may migrate the
 * woken task, and every such migration goes through the lockless
 * removal of its PELT sums from the CPU it leaves):
 *
 *   messaging-threads  messaging with threads instead of processes
 *              (hackbench -T; messages/s)
 *   pipeherd   16 processes pass a counter through one pipe that all of
 *              them read, so each write wakes one of a herd of sleepers
 *              (as stress-ng pipeherd does; passes/s)
 *   tcp-rr     a client and a server process exchange one byte at a time
 *              over a TCP connection on the loopback device (netperf
 *              TCP_RR; transactions/s); wakeups come from the softirq
 *   schbench   2 message threads, each waking as many workers as there
 *              are CPUs through pipes; a worker records its wakeup
 *              latency, thinks for 0.1 ms and acknowledges, the message
 *              thread sleeps 1 ms once all have (as schbench does);
 *              metrics: requests/s and wakeup_p99 (us)
 *
 *   periodic   a task pinned to the last CPU that wakes every 10 ms and
 *              runs 2 ms of its own CPU time; metrics: wakeup lateness,
 *              99th percentile (us), and duty, the share of the load's
 *              wall time that the task ran (%); also printed, not a
 *              metric: "@@@ periodic load=<name> run_per_period_ms=<n>",
 *              the CPU time its spin burned per wakeup (2 or a hair
 *              above; the duty also counts the wakeups' own cost, which
 *              the host decides)
 *   periodic-churn  the same while a fork/exit loop shares its CPU: the
 *              task still runs 2 ms per period, only later when the loop
 *              preempts it, so its own util_avg must not depend on how
 *              fast the loop forks (a wall-time spinner's does); more
 *              metrics: churn_forks, the loop's forks per second,
 *              preemptions, the task's involuntary context switches per
 *              period, and run_span, the wall time from its wakeup to the
 *              end of its 2 ms (how its run is split up; a task's util_avg
 *              only grows while it runs and decays while it waits)
 *
 * Two probes run only when named; they measure what a removal of a task
 * from a CPU leaves there, on a CPU that is otherwise idle (the last):
 *
 *   exit-residue  bursts of children that move to the idle CPU, run
 *              0.2 ms there and exit (the removal at death)
 *   wake-residue  a task that runs 0.2 ms at a time, bounced between
 *              CPU 0 and the idle CPU by sched_setaffinity() while it
 *              sleeps, so that each wakeup migrates it (the removal on
 *              wakeup migration, after a sleep shorter than a PELT period)
 *   group-residue  bursts of task groups that die: a cpu cgroup made for
 *              each, a child in it that runs 0.2 ms on the idle CPU and
 *              exits, the cgroup removed (the removal of a group entity
 *              when its task group is freed, an RCU grace period later)
 *
 * Each burst is followed by a wakeup of a helper task that sleeps on the
 * idle CPU (so that its cfs_rq's averages are brought up to date, pending
 * removals included) and a read of the root cfs_rq's util_avg there; with
 * exact removals it is back to what it was before the burst. Metrics:
 * util_after (util_avg left on the idle CPU, median over the bursts) and
 * util_per_removal (the same per removal, undoing PELT's decay over the
 * burst and until the read: r = U' (1 - y^d) / y^a, y^32 = 1/2, U' the
 * util_avg read less what was left of the one before the burst, d the
 * spacing of the removals and a the age of the last, in periods).
 *
 * For every load but the probes it also samples, every 50 ms, what
 * schedutil reads: the root cfs_rq's util_avg, runnable_avg and util_est
 * of the loaded CPU (the last one) from /sys/kernel/debug/sched/debug,
 * and for the periodic task its own se.avg.* from /proc/<pid>/sched; the
 * sampler runs pinned to CPU 0 in the root group (on one CPU it is
 * skipped). Each printed as the median of the samples, for the CPU with
 * the median of the frequency schedutil asks for at each sample
 * (schedutil_pct, see schedutil_pct()):
 *
 *   @@@ util load=<name> what=<cpu|task> util_avg=<n> runnable_avg=<n>
 *       util_est=<n> schedutil_pct=<n> samples=<n>   (one line; task: -1)
 *
 * Build: cc -static -O2 -Wall -pthread -o workloads workloads.c
 */
#include "guest_util.h"

#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/wait.h>

#define PERIOD_MS	10
#define RUN_MS		2
#define SAMPLE_MS	50
#define MAX_SAMPLES	4096
#define MSG_SIZE	100
#define GROUPS		2
#define PER_GROUP	5

static struct {
	int seconds;
	const char *cgroup;
	bool no_debug_file;
} opt = { 5, NULL, false };

static const char *self_exe;
static int ncpus, loaded_cpu;

/* Shared between a load's processes and with the sampler. */
struct shared {
	int stop;
	int skipped;		/* the load said why it did not run */
	long ops;
	pid_t periodic_pid;
	int nr_late;
	double late_us[MAX_SAMPLES];
	double duty_pct, run_per_period_ms, preemptions, run_span_ms;
};

static struct shared *sh;

#define STOPPING()	__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)
#define ADD_OPS(n)	__atomic_fetch_add(&sh->ops, (n), __ATOMIC_RELAXED)

static void enter_cgroup(void)
{
	char path[512], pid[16];

	if (!opt.cgroup)
		return;
	snprintf(path, sizeof(path), "%s/cgroup.procs", opt.cgroup);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write_file(path, pid)) {
		fprintf(stderr, "workloads: cannot enter %s\n", opt.cgroup);
		_exit(1);
	}
}

static void load_spawn(void)
{
	while (!STOPPING()) {
		pid_t pid = fork();

		if (!pid)
			_exit(0);
		if (pid > 0 && waitpid(pid, NULL, 0) == pid)
			ADD_OPS(1);
	}
}

static void load_pipe(void)
{
	int ping[2], pong[2];
	char c = 'x';
	pid_t pid;

	if (pipe(ping) || pipe(pong))
		_exit(1);
	pid = fork();
	if (!pid) {
		close(ping[1]);	/* so that the parent's close ends the loop */
		while (read(ping[0], &c, 1) == 1 && write(pong[1], &c, 1) == 1)
			;
		_exit(0);
	}
	close(ping[0]);
	while (!STOPPING()) {
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			break;
		ADD_OPS(1);
	}
	close(ping[1]);
	waitpid(pid, NULL, 0);
}

/*
 * One receiver or sender of messaging: a process of load_messaging() or a
 * thread of load_messaging_threads().
 */
struct messenger {
	int fd;			/* a receiver reads it, a sender writes all */
	int (*to)[PER_GROUP][2];
	int group;
};

static void *receive(void *arg)
{
	struct messenger *m = arg;
	char buf[MSG_SIZE];
	long got = 0;
	ssize_t n;

	while ((n = read(m->fd, buf, sizeof(buf))) > 0) {
		got += n;
		ADD_OPS(got / MSG_SIZE);
		got %= MSG_SIZE;
	}
	return NULL;
}

static void *send_messages(void *arg)
{
	struct messenger *m = arg;
	char buf[MSG_SIZE] = { 0 };
	int r;

	while (!STOPPING())
		for (r = 0; r < PER_GROUP; r++)
			if (write(m->to[m->group][r][1], buf, sizeof(buf)) < 0)
				_exit(1);
	return NULL;
}

static void load_messaging(void)
{
	int fds[GROUPS][PER_GROUP][2], g, r, s;
	pid_t pids[GROUPS * PER_GROUP * 2];
	int nr = 0;

	for (g = 0; g < GROUPS; g++)
		for (r = 0; r < PER_GROUP; r++)
			if (pipe(fds[g][r]))
				_exit(1);
	for (g = 0; g < GROUPS; g++) {
		for (r = 0; r < PER_GROUP; r++) {
			pids[nr] = fork();
			if (!pids[nr++]) {
				int i, j;

				for (i = 0; i < GROUPS; i++)
					for (j = 0; j < PER_GROUP; j++)
						if (i != g || j != r)
							close(fds[i][j][0]);
				for (i = 0; i < GROUPS; i++)
					for (j = 0; j < PER_GROUP; j++)
						close(fds[i][j][1]);
				receive(&(struct messenger){ fds[g][r][0], fds, g });
				_exit(0);
			}
		}
		for (s = 0; s < PER_GROUP; s++) {
			pids[nr] = fork();
			if (!pids[nr++]) {
				send_messages(&(struct messenger){ -1, fds, g });
				_exit(0);
			}
		}
	}
	for (g = 0; g < GROUPS; g++)
		for (r = 0; r < PER_GROUP; r++) {
			close(fds[g][r][0]);
			close(fds[g][r][1]);
		}
	while (nr--)
		waitpid(pids[nr], NULL, 0);
}

static int cmp_double(const void *a, const void *b);

/* messaging with threads: one process, the pipes shared */
static void load_messaging_threads(void)
{
	static int fds[GROUPS][PER_GROUP][2];
	static struct messenger recv_arg[GROUPS][PER_GROUP], send_arg[GROUPS];
	pthread_t receivers[GROUPS][PER_GROUP], senders[GROUPS][PER_GROUP];
	int g, r;

	for (g = 0; g < GROUPS; g++) {
		send_arg[g] = (struct messenger){ -1, fds, g };
		for (r = 0; r < PER_GROUP; r++) {
			if (pipe(fds[g][r]))
				_exit(1);
			recv_arg[g][r] = (struct messenger){ fds[g][r][0], fds, g };
		}
	}
	for (g = 0; g < GROUPS; g++)
		for (r = 0; r < PER_GROUP; r++)
			if (pthread_create(&receivers[g][r], NULL, receive, &recv_arg[g][r]) ||
			    pthread_create(&senders[g][r], NULL, send_messages, &send_arg[g]))
				_exit(1);
	for (g = 0; g < GROUPS; g++)
		for (r = 0; r < PER_GROUP; r++)
			pthread_join(senders[g][r], NULL);
	/* The write ends closed, each receiver reads what is left, then EOF. */
	for (g = 0; g < GROUPS; g++)
		for (r = 0; r < PER_GROUP; r++)
			close(fds[g][r][1]);
	for (g = 0; g < GROUPS; g++)
		for (r = 0; r < PER_GROUP; r++) {
			pthread_join(receivers[g][r], NULL);
			close(fds[g][r][0]);
		}
}

#define HERD		16

static void load_pipeherd(void)
{
	pid_t pids[HERD];
	long token = 0;
	int fds[2], i;

	if (pipe(fds))
		_exit(1);
	for (i = 0; i < HERD; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			_exit(1);
		if (!pids[i]) {
			/*
			 * Once stopped, each passes the token on once more
			 * and leaves, so that every other one still gets it.
			 */
			while (read(fds[0], &token, sizeof(token)) == sizeof(token)) {
				bool stop = STOPPING();

				token++;
				if (write(fds[1], &token, sizeof(token)) != sizeof(token))
					_exit(1);
				if (stop)
					_exit(0);
				ADD_OPS(1);
			}
			_exit(1);
		}
	}
	if (write(fds[1], &token, sizeof(token)) != sizeof(token))
		_exit(1);
	for (i = 0; i < HERD; i++)
		waitpid(pids[i], NULL, 0);
	close(fds[0]);
	close(fds[1]);
}

/* The loopback device up: no network setup runs in these guests. */
static int loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM, 0), rc;

	if (fd < 0)
		return -1;
	rc = ioctl(fd, SIOCGIFFLAGS, &ifr);
	if (!rc && !(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		rc = ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
	return rc;
}

static void load_tcp_rr(void)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t len = sizeof(addr);
	int listener, conn, one = 1;
	char c = 'x';
	pid_t pid;

	if (loopback_up()) {
		printf("@@@ bench load=tcp-rr skipped: no TCP/IP on the loopback device (%s)\n",
		       strerror(errno));
		fflush(stdout);
		sh->skipped = 1;
		_exit(0);
	}
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	listener = socket(AF_INET, SOCK_STREAM, 0);
	if (listener < 0 || bind(listener, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(listener, 1) ||
	    getsockname(listener, (struct sockaddr *)&addr, &len))
		_exit(1);
	pid = fork();
	if (!pid) {
		int s = accept(listener, NULL, NULL);

		if (s < 0)
			_exit(1);
		setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		while (read(s, &c, 1) == 1 && write(s, &c, 1) == 1)
			;
		_exit(0);
	}
	close(listener);
	conn = socket(AF_INET, SOCK_STREAM, 0);
	if (conn < 0 || connect(conn, (struct sockaddr *)&addr, sizeof(addr)))
		_exit(1);
	setsockopt(conn, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	while (!STOPPING()) {
		if (write(conn, &c, 1) != 1 || read(conn, &c, 1) != 1)
			_exit(1);
		ADD_OPS(1);
	}
	close(conn);
	waitpid(pid, NULL, 0);
}

#define SCH_MESSAGE_THREADS	2
#define SCH_THINK_MS		0.1
#define SCH_SLEEP_MS		1
#define SCH_MAX_LATENCIES	(1 << 16)

static struct {
	int nr_workers;		/* per message thread */
	int nr;
	double latency_us[SCH_MAX_LATENCIES];
} sch;

struct sch_worker {
	int wake[2], ack[2];
};

static void *sch_work(void *arg)
{
	struct sch_worker *w = arg;
	double posted;

	while (read(w->wake[0], &posted, sizeof(posted)) == sizeof(posted)) {
		int i = __atomic_fetch_add(&sch.nr, 1, __ATOMIC_RELAXED);

		if (i < SCH_MAX_LATENCIES)
			sch.latency_us[i] = (now_ms() - posted) * 1e3;
		spin_cpu_ms(SCH_THINK_MS);
		if (write(w->ack[1], "x", 1) != 1)
			_exit(1);
	}
	return NULL;
}

static void *sch_message(void *arg)
{
	struct sch_worker *w = arg;
	pthread_t *threads = calloc(sch.nr_workers, sizeof(*threads));
	char c;
	int i;

	if (!threads)
		_exit(1);
	for (i = 0; i < sch.nr_workers; i++)
		if (pipe(w[i].wake) || pipe(w[i].ack) ||
		    pthread_create(&threads[i], NULL, sch_work, &w[i]))
			_exit(1);
	while (!STOPPING()) {
		for (i = 0; i < sch.nr_workers; i++) {
			double posted = now_ms();

			if (write(w[i].wake[1], &posted, sizeof(posted)) != sizeof(posted))
				_exit(1);
		}
		for (i = 0; i < sch.nr_workers; i++)
			if (read(w[i].ack[0], &c, 1) != 1)
				_exit(1);
		ADD_OPS(sch.nr_workers);
		sleep_ms(SCH_SLEEP_MS);
	}
	for (i = 0; i < sch.nr_workers; i++) {
		close(w[i].wake[1]);
		pthread_join(threads[i], NULL);
	}
	free(threads);
	return NULL;
}

static void load_schbench(void)
{
	pthread_t message[SCH_MESSAGE_THREADS];
	struct sch_worker *w;
	double t0, t1;
	int m, n;

	sch.nr_workers = ncpus;
	w = calloc(SCH_MESSAGE_THREADS * sch.nr_workers, sizeof(*w));
	if (!w)
		_exit(1);
	t0 = now_ms();
	for (m = 0; m < SCH_MESSAGE_THREADS; m++)
		if (pthread_create(&message[m], NULL, sch_message, &w[m * sch.nr_workers]))
			_exit(1);
	for (m = 0; m < SCH_MESSAGE_THREADS; m++)
		pthread_join(message[m], NULL);
	t1 = now_ms();
	n = sch.nr < SCH_MAX_LATENCIES ? sch.nr : SCH_MAX_LATENCIES;
	if (!n)
		_exit(1);
	qsort(sch.latency_us, n, sizeof(double), cmp_double);
	printf("@@@ bench load=schbench metric=requests value=%.1f unit=1/s\n",
	       sh->ops / ((t1 - t0) / 1e3));
	printf("@@@ bench load=schbench metric=wakeup_p99 value=%.1f unit=us\n",
	       sch.latency_us[(int)(n * 0.99)]);
	fflush(stdout);
}

static void *nothing(void *arg)
{
	return arg;
}

static void load_threads(void)
{
	pthread_t t;

	while (!STOPPING())
		if (!pthread_create(&t, NULL, nothing, NULL) &&
		    !pthread_join(t, NULL))
			ADD_OPS(1);
}

/* Run argv[0] with argv until stopped; count the runs that exit 0. */
static void exec_loop(char *const argv[])
{
	while (!STOPPING()) {
		pid_t pid = fork();
		int status;

		if (!pid) {
			execv(argv[0], argv);
			_exit(127);
		}
		if (pid > 0 && waitpid(pid, &status, 0) == pid &&
		    WIFEXITED(status) && !WEXITSTATUS(status))
			ADD_OPS(1);
	}
}

static void load_exec(void)
{
	char *const argv[] = { (char *)self_exe, "--exit", NULL };

	exec_loop(argv);
}

static void load_shell(void)
{
	char *const argv[] = { "/bin/sh", "-c",
		"echo c b a | /bin/sort | /bin/cat >/dev/null", NULL };

	exec_loop(argv);
}

/* The spawn loop on the periodic task's CPU (its ops are not reported). */
static void churn(void)
{
	pin_to(loaded_cpu);
	load_spawn();
	_exit(0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void load_periodic(bool with_churn)
{
	pid_t churner = -1;
	double next, wall0, cpu0, span = 0, spun = 0;
	struct rusage ru0, ru1;
	long periods = 0;	/* sh->ops also counts the churn's forks */

	pin_to(loaded_cpu);
	sh->periodic_pid = getpid();
	if (with_churn) {
		churner = fork();
		if (!churner)
			churn();
	}
	getrusage(RUSAGE_THREAD, &ru0);
	wall0 = now_ms();
	cpu0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
	next = wall0 + PERIOD_MS;
	while (!STOPPING()) {
		double now = now_ms(), wait = next - now;

		if (wait > 0) {
			struct timespec ts = { 0, (long)(wait * 1e6) };

			nanosleep(&ts, NULL);
		}
		now = now_ms();
		if (sh->nr_late < MAX_SAMPLES)
			sh->late_us[sh->nr_late++] = (now - next) * 1e3;
		spun += spin_cpu_ms(RUN_MS);
		span += now_ms() - now;
		periods++;
		next += PERIOD_MS;
		if (next < now_ms())	/* overran: start again from now */
			next = now_ms() + PERIOD_MS;
	}
	cpu0 = clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	sh->duty_pct = 100 * cpu0 / (now_ms() - wall0);
	sh->run_per_period_ms = periods ? spun / periods : 0;
	getrusage(RUSAGE_THREAD, &ru1);
	sh->preemptions = periods ? (double)(ru1.ru_nivcsw - ru0.ru_nivcsw) / periods : 0;
	sh->run_span_ms = periods ? span / periods : 0;
	if (churner > 0)
		waitpid(churner, NULL, 0);
}

/*
 * The probes. A helper task sleeps on the idle CPU in a pipe read; each
 * byte written wakes it there (no migration), which updates the CPU's
 * cfs_rqs (decay, pending removals) before the read of util_avg.
 */
#define PROBE_RUN_MS	0.2
#define PROBE_REMOVALS	100
#define PROBE_SETTLE_MS	300	/* about 10 half-lives: the CPU decays to ~0 */
#define PELT_PERIOD_MS	1.024

/* PELT's decay over p periods, y^p with y^32 = 1/2 (no libm in the guest) */
static double pelt_decay(double p)
{
	double t = p / 32, z, term = 1, sum = 1;
	int n, halvings = (int)t;

	z = -(t - halvings) * 0.6931471805599453;	/* 2^-frac = e^z */
	for (n = 1; n < 16; n++) {
		term *= z / n;
		sum += term;
	}
	while (halvings-- > 0)
		sum /= 2;
	return sum;
}

struct probe {
	int poke[2];
	pid_t helper;
	int after_burst_ms;	/* before the read: for removals that come later */
	int nr;
	double util_after[MAX_SAMPLES], per_removal[MAX_SAMPLES];
};

static void probe_start(struct probe *p)
{
	char c;

	memset(p, 0, sizeof(*p));
	if (pipe(p->poke))
		_exit(1);
	p->helper = fork();
	if (!p->helper) {
		close(p->poke[1]);	/* EOF when the prober closes its end */
		pin_to(loaded_cpu);
		while (read(p->poke[0], &c, 1) == 1)
			;
		_exit(0);
	}
	pin_to(0);
}

static int probe_util_fn(const struct cfs_field *f, void *arg)
{
	long *util = arg;

	if (f->cpu == loaded_cpu && !strcmp(f->path, "/") && !strcmp(f->key, "util_avg"))
		*util = atol(f->value);
	return 0;
}

/* util_avg of the idle CPU's root cfs_rq, brought up to date first. */
static long probe_read(struct probe *p, double *when)
{
	long util = -1;
	char *text;

	if (write(p->poke[1], "x", 1) != 1)
		_exit(1);
	sleep_ms(2);
	*when = now_ms();
	text = read_file(SCHED_DEBUG_FILE);
	if (!text)
		_exit(1);
	for_each_cfs_field(text, probe_util_fn, &util);
	free(text);
	return util;
}

/*
 * probe_record: a burst of n removals from t0 to t1, the last one at
 * t_last; u0 and u1 read before and after.
 */
static void probe_record(struct probe *p, long u0, double t_u0, long u1,
			 double t_u1, int n, double t0, double t1, double t_last)
{
	double spacing = (t1 - t0) / n / PELT_PERIOD_MS;
	double age = (t_u1 - t_last) / PELT_PERIOD_MS;
	double left = u1 - u0 * pelt_decay((t_u1 - t_u0) / PELT_PERIOD_MS);

	if (p->nr >= MAX_SAMPLES)
		return;
	p->util_after[p->nr] = u1;
	p->per_removal[p->nr++] = left * (1 - pelt_decay(spacing)) / pelt_decay(age);
}

static int cmp_double(const void *a, const void *b);

static void probe_report(struct probe *p, const char *load)
{
	close(p->poke[1]);
	waitpid(p->helper, NULL, 0);
	if (!p->nr)
		_exit(1);
	qsort(p->util_after, p->nr, sizeof(double), cmp_double);
	qsort(p->per_removal, p->nr, sizeof(double), cmp_double);
	printf("@@@ bench load=%s metric=util_after value=%.1f unit=util\n",
	       load, p->util_after[p->nr / 2]);
	printf("@@@ bench load=%s metric=util_per_removal value=%.3f unit=util\n",
	       load, p->per_removal[p->nr / 2]);
	fflush(stdout);
}

/*
 * probe_loop: bursts of PROBE_REMOVALS removals from the idle CPU, each
 * made by burst(ctx), which returns the time of the last one, until the
 * load is stopped; then the report.
 */
static void probe_loop(struct probe *p, const char *load,
		       double (*burst)(void *ctx), void *ctx)
{
	while (!STOPPING()) {
		double t_u0, t_u1, t0, t1, t_last;
		long u0, u1;

		sleep_ms(PROBE_SETTLE_MS);
		u0 = probe_read(p, &t_u0);
		t0 = now_ms();
		t_last = burst(ctx);
		t1 = now_ms();
		sleep_ms(p->after_burst_ms);
		u1 = probe_read(p, &t_u1);
		probe_record(p, u0, t_u0, u1, t_u1, PROBE_REMOVALS, t0, t1, t_last);
	}
	probe_report(p, load);
}

static double exit_burst(void *ctx)
{
	double t_last = 0;
	int i;

	(void)ctx;

	for (i = 0; i < PROBE_REMOVALS; i++) {
		pid_t pid = fork();

		if (!pid) {
			pin_to(loaded_cpu);
			spin_ms(PROBE_RUN_MS);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, NULL, 0) != pid)
			_exit(1);
		t_last = now_ms();
	}
	return t_last;
}

static void load_exit_residue(void)
{
	static struct probe p;

	probe_start(&p);
	probe_loop(&p, "exit-residue", exit_burst, NULL);
}

struct bouncer {
	pid_t pid;
	int wake, ack;
};

/* idle CPU, then CPU 0: each wakeup moves it; count the moves off */
static double wake_burst(void *ctx)
{
	struct bouncer *b = ctx;
	double t_last = 0;
	char c;
	int i;

	for (i = 0; i < 2 * PROBE_REMOVALS; i++) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(i % 2 ? 0 : loaded_cpu, &set);
		if (sched_setaffinity(b->pid, sizeof(set), &set) ||
		    write(b->wake, "x", 1) != 1 || read(b->ack, &c, 1) != 1)
			_exit(1);
		if (i % 2)
			t_last = now_ms();
	}
	return t_last;
}

static void load_wake_residue(void)
{
	static struct probe p;
	struct bouncer b;
	int wake[2], ack[2];
	char c;

	probe_start(&p);
	if (pipe(wake) || pipe(ack))
		_exit(1);
	b.pid = fork();
	if (!b.pid) {
		/* Only the prober's ends may keep these pipes open. */
		close(p.poke[1]);
		close(wake[1]);
		close(ack[0]);
		while (read(wake[0], &c, 1) == 1) {
			spin_ms(PROBE_RUN_MS);
			if (write(ack[1], "x", 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	b.wake = wake[1];
	b.ack = ack[0];
	probe_loop(&p, "wake-residue", wake_burst, &b);
	close(wake[1]);
	waitpid(b.pid, NULL, 0);
}

/* The cpu cgroups of the group-residue probe: CGROUP_ROOT/residue.N. */
#define CGROUP_ROOT	"/sys/fs/cgroup"
#define GROUP_REMOVAL_WAIT_MS	100

struct group_prober {
	char dir[256];
	int n;
};

static double group_burst(void *ctx)
{
	struct group_prober *g = ctx;
	double t_last = 0;
	char path[320];
	int i;

	for (i = 0; i < PROBE_REMOVALS; i++) {
		pid_t pid;

		snprintf(path, sizeof(path), "%s/residue.%d", g->dir, g->n++);
		if (mkdir(path, 0755))
			_exit(1);
		pid = fork();
		if (!pid) {
			char procs[352], me[16];

			snprintf(procs, sizeof(procs), "%s/cgroup.procs", path);
			snprintf(me, sizeof(me), "%d", getpid());
			if (write_file(procs, me))
				_exit(1);
			pin_to(loaded_cpu);
			spin_ms(PROBE_RUN_MS);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, NULL, 0) != pid || rmdir(path))
			_exit(1);
		t_last = now_ms();
	}
	return t_last;
}

static void load_group_residue(void)
{
	static struct probe p;
	static struct group_prober g = { CGROUP_ROOT, 0 };

	/*
	 * The groups go right below the root, so that each one's entity
	 * sits on the idle CPU's root cfs_rq, which the probe reads.
	 */
	if (write_file(CGROUP_ROOT "/cgroup.subtree_control", "+cpu")) {
		printf("@@@ bench load=group-residue skipped: no cpu controller in %s\n",
		       CGROUP_ROOT);
		fflush(stdout);
		return;
	}
	probe_start(&p);
	/*
	 * A removed cgroup's entities leave their cfs_rqs an RCU grace
	 * period later (sched_unregister_group()): wait for it.
	 */
	p.after_burst_ms = GROUP_REMOVAL_WAIT_MS;
	probe_loop(&p, "group-residue", group_burst, &g);
}

static const struct {
	const char *name, *metric, *unit;
	void (*fn)(void);
	bool per_second, sample, probe, named_only;
} loads[] = {
	{ "spawn", "forks", "1/s", load_spawn, true, true, false, false },
	{ "pipe", "round_trips", "1/s", load_pipe, true, true, false, false },
	{ "messaging", "messages", "1/s", load_messaging, true, true, false, false },
	{ "threads", "threads", "1/s", load_threads, true, true, false, false },
	{ "exec", "execs", "1/s", load_exec, true, true, false, false },
	{ "shell", "scripts", "1/s", load_shell, true, true, false, false },
	{ "periodic", "lateness_p99", "us", NULL, false, true, false, false },
	{ "periodic-churn", "lateness_p99", "us", NULL, false, true, false, false },
	{ "messaging-threads", "messages", "1/s", load_messaging_threads, true, true, false, true },
	{ "pipeherd", "passes", "1/s", load_pipeherd, true, true, false, true },
	{ "tcp-rr", "transactions", "1/s", load_tcp_rr, true, true, false, true },
	/* metric NULL: the load prints its own lines */
	{ "schbench", NULL, NULL, load_schbench, false, true, false, true },
	{ "exit-residue", NULL, NULL, load_exit_residue, false, false, true, true },
	{ "wake-residue", NULL, NULL, load_wake_residue, false, false, true, true },
	{ "group-residue", NULL, NULL, load_group_residue, false, false, true, true },
};

/* Medians of what the sampler saw, "-1" when it saw nothing. */
struct util_samples {
	long cpu_avg[MAX_SAMPLES], cpu_runnable[MAX_SAMPLES];
	long cpu_est[MAX_SAMPLES], cpu_sugov[MAX_SAMPLES];
	long task_avg[MAX_SAMPLES], task_runnable[MAX_SAMPLES];
	long task_est[MAX_SAMPLES];
	int nr_cpu, nr_task;
};

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static long median(long *v, int n)
{
	if (!n)
		return -1;
	qsort(v, n, sizeof(*v), cmp_long);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct cpu_reading {
	long util_avg, runnable_avg, util_est;
};

#define CAPACITY	1024	/* no asymmetric capacity in these guests */

/*
 * The frequency schedutil asks for from one reading, in % of the highest,
 * as v7.1.5 computes it for a frequency-invariant CPU: cpu_util() with
 * boost (kernel/sched/fair.c, cpu_util_cfs_boost()) takes
 * max(util_avg, runnable_avg, util_est) capped at the capacity;
 * effective_cpu_util() adds rt, dl and irq, which are 0 here (no rt or
 * dl task runs, and without IRQ_TIME_ACCOUNTING there is no irq
 * average); sugov_effective_cpu_perf() (cpufreq_schedutil.c) adds 25 %
 * (map_util_perf()) capped at the capacity; get_next_freq() maps that to
 * max_freq * perf / capacity. Not modelled: the rounding up to a real
 * table's next frequency, rate limits, and, on a CPU without frequency
 * invariance, the feedback through the current frequency (there the
 * request is 1.25 x this of the current one).
 */
static long schedutil_pct(const struct cpu_reading *r)
{
	long util = r->util_avg;

	if (r->runnable_avg > util)
		util = r->runnable_avg;
	if (r->util_est > util)
		util = r->util_est;
	if (util > CAPACITY)
		util = CAPACITY;
	util += util >> 2;
	if (util > CAPACITY)
		util = CAPACITY;
	return util * 100 / CAPACITY;
}

static int root_util_fn(const struct cfs_field *f, void *arg)
{
	struct cpu_reading *r = arg;

	if (f->cpu != loaded_cpu || strcmp(f->path, "/"))
		return 0;
	if (!strcmp(f->key, "util_avg"))
		r->util_avg = atol(f->value);
	else if (!strcmp(f->key, "runnable_avg"))
		r->runnable_avg = atol(f->value);
	else if (!strcmp(f->key, "util_est"))
		r->util_est = atol(f->value);
	return 0;
}

static void sampler(const char *load)
{
	static struct util_samples s;
	char path[64];

	pin_to(0);
	while (!STOPPING() && s.nr_cpu < MAX_SAMPLES && s.nr_task < MAX_SAMPLES) {
		struct cpu_reading r = { -1, -1, -1 };
		char *text = opt.no_debug_file ? NULL : read_file(SCHED_DEBUG_FILE);

		if (text) {
			for_each_cfs_field(text, root_util_fn, &r);
			free(text);
			if (r.util_avg >= 0) {
				s.cpu_avg[s.nr_cpu] = r.util_avg;
				s.cpu_runnable[s.nr_cpu] = r.runnable_avg;
				s.cpu_est[s.nr_cpu] = r.util_est;
				s.cpu_sugov[s.nr_cpu++] = schedutil_pct(&r);
			}
		}
		if (sh->periodic_pid) {
			snprintf(path, sizeof(path), "/proc/%d/sched", sh->periodic_pid);
			text = read_file(path);
			if (text) {
				long a = proc_sched_value(text, "se.avg.util_avg");
				long ra = proc_sched_value(text, "se.avg.runnable_avg");
				long e = proc_sched_value(text, "se.avg.util_est");

				free(text);
				if (a >= 0) {
					s.task_avg[s.nr_task] = a;
					s.task_runnable[s.nr_task] = ra;
					s.task_est[s.nr_task++] = e;
				}
			}
		}
		sleep_ms(SAMPLE_MS);
	}
	if (s.nr_cpu)
		printf("@@@ util load=%s what=cpu util_avg=%ld runnable_avg=%ld util_est=%ld schedutil_pct=%ld samples=%d\n",
		       load, median(s.cpu_avg, s.nr_cpu),
		       median(s.cpu_runnable, s.nr_cpu),
		       median(s.cpu_est, s.nr_cpu),
		       median(s.cpu_sugov, s.nr_cpu), s.nr_cpu);
	if (s.nr_task)
		printf("@@@ util load=%s what=task util_avg=%ld runnable_avg=%ld util_est=%ld schedutil_pct=-1 samples=%d\n",
		       load, median(s.task_avg, s.nr_task),
		       median(s.task_runnable, s.nr_task),
		       median(s.task_est, s.nr_task), s.nr_task);
	fflush(stdout);
	_exit(0);
}

static int run(int i)
{
	pid_t worker, sampler_pid = -1;
	double t0, t1;
	int status;

	memset(sh, 0, sizeof(*sh));
	worker = fork();
	if (worker < 0)
		return -1;
	if (!worker) {
		enter_cgroup();
		if (loads[i].fn)
			loads[i].fn();
		else
			load_periodic(!strcmp(loads[i].name, "periodic-churn"));
		_exit(0);
	}
	if (loads[i].sample && ncpus > 1) {
		sampler_pid = fork();
		if (!sampler_pid)
			sampler(loads[i].name);
	}
	t0 = now_ms();
	sleep_ms(opt.seconds * 1000L);
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	t1 = now_ms();
	if (waitpid(worker, &status, 0) != worker || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		printf("@@@ bench load=%s failed\n", loads[i].name);
		return -1;
	}
	if (sampler_pid > 0)
		waitpid(sampler_pid, NULL, 0);
	if (!loads[i].metric || sh->skipped) {
		;	/* printed by the load */
	} else if (loads[i].per_second) {
		printf("@@@ bench load=%s metric=%s value=%.1f unit=%s\n",
		       loads[i].name, loads[i].metric,
		       sh->ops / ((t1 - t0) / 1e3), loads[i].unit);
	} else {
		int n = sh->nr_late;

		qsort(sh->late_us, n, sizeof(double), cmp_double);
		printf("@@@ bench load=%s metric=%s value=%.1f unit=%s\n",
		       loads[i].name, loads[i].metric,
		       n ? sh->late_us[(int)(n * 0.99)] : -1.0, loads[i].unit);
		printf("@@@ bench load=%s metric=duty value=%.2f unit=%%\n",
		       loads[i].name, sh->duty_pct);
		printf("@@@ periodic load=%s run_per_period_ms=%.3f\n",
		       loads[i].name, sh->run_per_period_ms);
		printf("@@@ bench load=%s metric=preemptions value=%.3f unit=1/period\n",
		       loads[i].name, sh->preemptions);
		printf("@@@ bench load=%s metric=run_span value=%.3f unit=ms\n",
		       loads[i].name, sh->run_span_ms);
		if (sh->ops)	/* only the churn counts ops here */
			printf("@@@ bench load=%s metric=churn_forks value=%.1f unit=1/s\n",
			       loads[i].name, sh->ops / ((t1 - t0) / 1e3));
	}
	fflush(stdout);
	return 0;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: workloads [--seconds N] [--cgroup DIR] [--no-debug-file] [LOAD...]\n"
		"\n"
		"Run each LOAD (default: all but the wakeup-heavy loads and the\n"
		"probes, which run only when named) for N seconds (default %d) in the\n"
		"cgroup DIR (default: where it is started) and print its rate as\n"
		"\"@@@ bench load=L metric=M value=V unit=U\". --no-debug-file: the\n"
		"sampler reads only the task's /proc/PID/sched, not the CPU's\n"
		"figures from the sched debug file (where debug.c calls avg_vruntime()\n"
		"unlocked, as 6.12.117 does, reading it on busy CPUs corrupts EEVDF\n"
		"state); the probes then skip. Loads:",
		opt.seconds);
	for (i = 0; i < ARRAY_SIZE(loads); i++)
		fprintf(f, " %s", loads[i].name);
	fprintf(f, ".\nExit 0 when every load ran, 1 otherwise, 2 on bad usage.\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "cgroup", required_argument, NULL, 'c' },
		{ "no-debug-file", no_argument, NULL, 'n' },
		{ "exit", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	bool chosen[ARRAY_SIZE(loads)] = { false }, any = false;
	size_t i;
	int c, rc = 0;
	char *end;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			opt.seconds = strtol(optarg, &end, 10);
			if (*end || opt.seconds < 1) {
				fprintf(stderr, "workloads: bad --seconds '%s'\n", optarg);
				return 2;
			}
			break;
		case 'c':
			opt.cgroup = optarg;
			break;
		case 'n':
			opt.no_debug_file = true;
			break;
		case 'x':	/* the exec load's child */
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	for (; optind < argc; optind++) {
		for (i = 0; i < ARRAY_SIZE(loads); i++)
			if (!strcmp(argv[optind], loads[i].name))
				break;
		if (i == ARRAY_SIZE(loads)) {
			fprintf(stderr, "workloads: unknown load '%s'\n", argv[optind]);
			usage(stderr);
			return 2;
		}
		chosen[i] = any = true;
	}
	self_exe = "/proc/self/exe";
	{
		static char exe[512];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		if (n > 0) {
			exe[n] = '\0';
			self_exe = exe;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	loaded_cpu = ncpus - 1;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(loads); i++) {
		if (any ? !chosen[i] : loads[i].named_only)
			continue;
		if (loads[i].probe && (ncpus < 2 || opt.no_debug_file)) {
			printf("@@@ bench load=%s skipped: needs 2 CPUs and the sched debug file\n",
			       loads[i].name);
			continue;
		}
		if (run(i))
			rc = 1;
	}
	return rc;
}
