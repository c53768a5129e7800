// SPDX-License-Identifier: GPL-2.0
/*
 * dvfs_work: the work a CPU does per second at its current frequency, and
 * the util_avg of a periodic task there, for the validation of the
 * emulated DVFS (scripts/experiments/dvfs/guest/dvfs.sh).
 *
 *   dvfs_work CPU SECONDS [BLOCKS [PERIOD_MS]]
 *   dvfs_work CPU ratio KHZ FMAX_KHZ ROUNDS
 *   dvfs_work CPU parallel OTHER_CPU ROUNDS
 *   dvfs_work CPU util KHZ FMAX_KHZ BLOCKS PERIOD_MS ROUNDS
 *
 * Pinned to CPU, the first form runs a fixed arithmetic loop for SECONDS
 * of wall time and prints the number of loop blocks it finished per
 * second. Without BLOCKS it never sleeps: an always-running task, whose
 * util_avg and whose CPU's frequency the job reads from outside. With
 * BLOCKS, it does BLOCKS blocks at the start of every PERIOD_MS (default
 * 20) ms period and sleeps for the rest, and prints a second number: the
 * mean of its own se.avg.util_avg, read at the start of every period of
 * the second half of the run.
 *
 * The other forms compare two measurements made in turn, ROUNDS times,
 * each round A, B, A with the same window, and print the median, lowest
 * and highest of B / mean(A, A) over the rounds. Short alternating
 * windows and a median make the comparison hold on a host whose speed
 * drifts or jumps now and then (multi-threaded TCG runs at the host's
 * speed): a jump spoils a round or two, not the median.
 *
 *   ratio     the loop's work at KHZ (B) against FMAX_KHZ (A), set through
 *             CPU's scaling_setspeed (userspace governor), WORK_MS windows
 *             after SETTLE_MS at the new frequency: f / fmax where the
 *             emulation holds
 *   parallel  the loop on CPU and one on OTHER_CPU at once (B) against
 *             each alone (A): two lines, CPU's and OTHER_CPU's; 1 on two
 *             CPUs that compute in parallel
 *   util      the mean util_avg of the periodic loop (BLOCKS every
 *             PERIOD_MS) over the second half of UTIL_MS windows at KHZ
 *             (B) against FMAX_KHZ (A): 1 where frequency invariance holds
 *             (the same work, in PELT's scaled time), though the task's
 *             share of wall time grows by fmax / f
 *
 * Build: cc -static -O2 -Wall -pthread -o dvfs_work dvfs_work.c
 */
#include "guest_util.h"
#include <pthread.h>

#define BLOCK		4096	/* loop iterations between clock reads */
#define SETTLE_MS	5	/* after a frequency change: a stall owed is paid */
#define WORK_MS		40
#define UTIL_MS		400
#define MAX_ROUNDS	64

/* Per thread: two loops writing one cache line would slow each other down. */
static __thread volatile unsigned long acc = 1;
static long loop_cpu;

static void block(void)
{
	int i;

	for (i = 0; i < BLOCK; i++)
		acc = acc * 6364136223846793005UL + 1442695040888963407UL;
}

/* Blocks per second of the loop for ms milliseconds of wall time. */
static double loop_rate(double ms)
{
	double start = now_ms(), end = start + ms;
	unsigned long blocks = 0;

	while (now_ms() < end) {
		block();
		blocks++;
	}
	return blocks / ((now_ms() - start) / 1e3);
}

/* Sleep until ms on CLOCK_MONOTONIC (now_ms()'s clock). */
static void sleep_until_ms(double ms)
{
	struct timespec ts = { (time_t)(ms / 1e3),
			       (long)((ms - (time_t)(ms / 1e3) * 1e3) * 1e6) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/*
 * The periodic loop for ms milliseconds: blocks per second, and in
 * *util the mean of its util_avg at the start of each period of the
 * second half (-1 where /proc/self/sched has none).
 */
static double periodic(double ms, unsigned long per_period, double period_ms, double *util)
{
	double start = now_ms(), end = start + ms, next, util_total = 0;
	unsigned long blocks = 0, samples = 0, n;
	char *text;
	long u;

	for (next = start; next < end; next += period_ms) {
		if (next - start >= ms / 2) {
			text = read_file("/proc/self/sched");
			u = text ? proc_sched_value(text, "se.avg.util_avg") : -1;
			free(text);
			if (u < 0) {
				*util = -1;
				return -1;
			}
			util_total += u;
			samples++;
		}
		for (n = 0; n < per_period; n++)
			block();
		blocks += per_period;
		sleep_until_ms(next + period_ms);
	}
	*util = samples ? util_total / samples : -1;
	return blocks / ((now_ms() - start) / 1e3);
}

static int set_khz(unsigned long khz)
{
	char path[96], text[32];
	int fd, len, ok;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_setspeed", loop_cpu);
	len = snprintf(text, sizeof(text), "%lu\n", khz);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, text, len) == len;
	close(fd);
	return ok ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* "median lowest highest" of r[0..n-1]. */
static void print_rounds(double *r, int n)
{
	qsort(r, n, sizeof(*r), cmp_double);
	printf("%.4f %.4f %.4f\n", n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2,
	       r[0], r[n - 1]);
}

/* One measurement of ratio or util at khz; < 0 on error. */
static double measure(int util_mode, unsigned long khz, unsigned long blocks,
		      double period_ms)
{
	double util;

	if (set_khz(khz)) {
		perror("dvfs_work: scaling_setspeed");
		return -1;
	}
	if (!util_mode) {
		loop_rate(SETTLE_MS);
		return loop_rate(WORK_MS);
	}
	periodic(UTIL_MS, blocks, period_ms, &util);
	if (util < 0)
		fprintf(stderr, "dvfs_work: no se.avg.util_avg in /proc/self/sched\n");
	return util;
}

static int alternate(int util_mode, unsigned long khz, unsigned long fmax, int rounds,
		     unsigned long blocks, double period_ms)
{
	double r[MAX_ROUNDS], a, b, c;
	int i;

	for (i = 0; i < rounds; i++) {
		a = measure(util_mode, fmax, blocks, period_ms);
		b = measure(util_mode, khz, blocks, period_ms);
		c = measure(util_mode, fmax, blocks, period_ms);
		if (a < 0 || b < 0 || c < 0)
			return 1;
		r[i] = a + c > 0 ? b / ((a + c) / 2) : 0;
	}
	print_rounds(r, rounds);
	return 0;
}

/* parallel: the phases of a round, which of the two loops run in each. */
static const bool phase_runs[][2] = {
	{ true, false }, { false, true }, { true, true }, { false, true }, { true, false },
};
#define PHASES	ARRAY_SIZE(phase_runs)

static pthread_barrier_t phase_barrier;
static double phase_rate[MAX_ROUNDS][PHASES][2];
static int parallel_rounds;

/* Loop me (0: CPU, 1: OTHER_CPU) through every phase of every round. */
static void run_phases(int me)
{
	int i;
	size_t p;

	for (i = 0; i < parallel_rounds; i++)
		for (p = 0; p < PHASES; p++) {
			pthread_barrier_wait(&phase_barrier);
			if (phase_runs[p][me])
				phase_rate[i][p][me] = loop_rate(WORK_MS);
			else
				sleep_ms(WORK_MS);
		}
}

static void *other_loop(void *cpu)
{
	if (pin_to((long)cpu)) {
		perror("dvfs_work: sched_setaffinity");
		exit(1);
	}
	run_phases(1);
	return NULL;
}

static int parallel(long other, int rounds)
{
	double r[2][MAX_ROUNDS];
	pthread_t thread;
	int i, me;

	parallel_rounds = rounds;
	pthread_barrier_init(&phase_barrier, NULL, 2);
	if (pthread_create(&thread, NULL, other_loop, (void *)other)) {
		perror("dvfs_work: pthread_create");
		return 1;
	}
	run_phases(0);
	pthread_join(thread, NULL);
	for (i = 0; i < rounds; i++) {
		double (*p)[2] = phase_rate[i];

		r[0][i] = p[2][0] / ((p[0][0] + p[4][0]) / 2);
		r[1][i] = p[2][1] / ((p[1][1] + p[3][1]) / 2);
	}
	for (me = 0; me < 2; me++)
		print_rounds(r[me], rounds);
	return 0;
}

static bool parse_ulong(const char *text, unsigned long *value)
{
	char *rest;

	*value = strtoul(text, &rest, 10);
	return *text && !*rest;
}

static int usage(void)
{
	fprintf(stderr, "usage: dvfs_work CPU SECONDS [BLOCKS [PERIOD_MS]]\n"
		"       dvfs_work CPU ratio KHZ FMAX_KHZ ROUNDS\n"
		"       dvfs_work CPU parallel OTHER_CPU ROUNDS\n"
		"       dvfs_work CPU util KHZ FMAX_KHZ BLOCKS PERIOD_MS ROUNDS\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long khz, fmax, blocks = 0, other, rounds;
	double seconds, period_ms = 20, util, rate;
	char *rest;

	if (argc < 3)
		return usage();
	loop_cpu = strtol(argv[1], &rest, 10);
	if (*rest || loop_cpu < 0) {
		fprintf(stderr, "dvfs_work: bad CPU '%s'\n", argv[1]);
		return 2;
	}
	if (pin_to(loop_cpu)) {
		perror("dvfs_work: sched_setaffinity");
		return 1;
	}
	if (!strcmp(argv[2], "ratio") || !strcmp(argv[2], "util")) {
		bool util_mode = argv[2][0] == 'u';

		if (argc != (util_mode ? 8 : 6) || !parse_ulong(argv[3], &khz) ||
		    !parse_ulong(argv[4], &fmax) || !khz || !fmax ||
		    !parse_ulong(argv[argc - 1], &rounds) || !rounds || rounds > MAX_ROUNDS)
			return usage();
		if (util_mode) {
			period_ms = strtod(argv[6], &rest);
			if (!parse_ulong(argv[5], &blocks) || !blocks || *rest || period_ms <= 0)
				return usage();
		}
		return alternate(util_mode, khz, fmax, rounds, blocks, period_ms);
	}
	if (!strcmp(argv[2], "parallel")) {
		if (argc != 5 || !parse_ulong(argv[3], &other) ||
		    !parse_ulong(argv[4], &rounds) || !rounds || rounds > MAX_ROUNDS)
			return usage();
		return parallel(other, rounds);
	}
	seconds = strtod(argv[2], &rest);
	if (*rest || seconds <= 0 || argc > 5) {
		fprintf(stderr, "dvfs_work: bad SECONDS '%s'\n", argv[2]);
		return 2;
	}
	if (argc >= 4 && (!parse_ulong(argv[3], &blocks) || !blocks)) {
		fprintf(stderr, "dvfs_work: bad BLOCKS '%s'\n", argv[3]);
		return 2;
	}
	if (argc == 5) {
		period_ms = strtod(argv[4], &rest);
		if (*rest || period_ms <= 0) {
			fprintf(stderr, "dvfs_work: bad PERIOD_MS '%s'\n", argv[4]);
			return 2;
		}
	}
	if (!blocks) {
		printf("%.0f\n", loop_rate(seconds * 1e3));
		return 0;
	}
	rate = periodic(seconds * 1e3, blocks, period_ms, &util);
	if (rate < 0) {
		fprintf(stderr, "dvfs_work: no se.avg.util_avg in /proc/self/sched\n");
		return 1;
	}
	printf("%.0f %.0f\n", rate, util);
	return 0;
}
