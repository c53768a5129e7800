// SPDX-License-Identifier: GPL-2.0
/*
 * dvfs_work: the work a CPU does per second at its current frequency, and
 * the util_avg of a periodic task there, for the validation of the
 * emulated DVFS (scripts/guest/dvfs.sh).
 *
 *   dvfs_work CPU SECONDS [BLOCKS]
 *
 * Pinned to CPU, runs a fixed arithmetic loop for SECONDS of wall time and
 * prints the number of loop blocks it finished per second. Under an
 * emulated frequency f the count must be f / fmax of the count at fmax.
 * Without BLOCKS it never sleeps: an always-running task, whose util_avg
 * and whose CPU's frequency the job reads from outside.
 *
 * With BLOCKS, it does BLOCKS blocks at the start of every 20 ms period
 * and sleeps for the rest, and prints a second number: the mean of its
 * own se.avg.util_avg, read at the start of every period of the second
 * half of the run. Where frequency invariance holds, that mean does not
 * depend on the frequency (the same work, in PELT's scaled time), while
 * the task's share of wall time grows by fmax / f.
 *
 * Build: cc -static -O2 -Wall -pthread -o dvfs_work dvfs_work.c
 */
#include "guest_util.h"

#define BLOCK		4096	/* loop iterations between clock reads */
#define PERIOD_MS	20

static volatile unsigned long acc = 1;

static void block(void)
{
	int i;

	for (i = 0; i < BLOCK; i++)
		acc = acc * 6364136223846793005UL + 1442695040888963407UL;
}

/* Sleep until ms on CLOCK_MONOTONIC (now_ms()'s clock). */
static void sleep_until_ms(double ms)
{
	struct timespec ts = { (time_t)(ms / 1e3),
			       (long)((ms - (time_t)(ms / 1e3) * 1e3) * 1e6) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

int main(int argc, char **argv)
{
	double seconds, start, end, next, util_total = 0;
	unsigned long blocks = 0, per_period = 0, n, samples = 0;
	char *rest, *text;
	long cpu, util;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: dvfs_work CPU SECONDS [BLOCKS]\n");
		return 2;
	}
	cpu = strtol(argv[1], &rest, 10);
	if (*rest || cpu < 0) {
		fprintf(stderr, "dvfs_work: bad CPU '%s'\n", argv[1]);
		return 2;
	}
	seconds = strtod(argv[2], &rest);
	if (*rest || seconds <= 0) {
		fprintf(stderr, "dvfs_work: bad SECONDS '%s'\n", argv[2]);
		return 2;
	}
	if (argc == 4) {
		per_period = strtoul(argv[3], &rest, 10);
		if (*rest || !per_period) {
			fprintf(stderr, "dvfs_work: bad BLOCKS '%s'\n", argv[3]);
			return 2;
		}
	}
	if (pin_to(cpu)) {
		perror("dvfs_work: sched_setaffinity");
		return 1;
	}
	start = now_ms();
	end = start + seconds * 1e3;
	if (!per_period) {
		while (now_ms() < end) {
			block();
			blocks++;
		}
		printf("%.0f\n", blocks / ((now_ms() - start) / 1e3));
		return 0;
	}
	for (next = start; next < end; next += PERIOD_MS) {
		if (next - start >= seconds * 1e3 / 2) {
			text = read_file("/proc/self/sched");
			util = text ? proc_sched_value(text, "se.avg.util_avg") : -1;
			free(text);
			if (util < 0) {
				fprintf(stderr, "dvfs_work: no se.avg.util_avg in /proc/self/sched\n");
				return 1;
			}
			util_total += util;
			samples++;
		}
		for (n = 0; n < per_period; n++)
			block();
		blocks += per_period;
		sleep_until_ms(next + PERIOD_MS);
	}
	printf("%.0f %.0f\n", blocks / ((now_ms() - start) / 1e3),
	       samples ? util_total / samples : -1.0);
	return 0;
}
