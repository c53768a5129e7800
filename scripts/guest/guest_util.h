/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest programs (phantom_attach.c, pelt_stress.c,
 * workloads.c, dvfs_work.c): time, CPU pinning, small files, /proc/<pid>/
 * sched and the cfs_rq sections of /sys/kernel/debug/sched/debug. Header
 * only: each program is one static binary built with one cc command
 * (scripts/guest-initramfs.sh).
 */
#ifndef GUEST_UTIL_H
#define GUEST_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>

#define DEBUGFS			"/sys/kernel/debug"
#define SCHED_DEBUG_FILE	DEBUGFS "/sched/debug"

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/*
 * The start of a TAP program that reads SCHED_DEBUG_FILE as root: the
 * TAP header, then false, or true with the skip line printed when it
 * cannot run here (not root; no sched debug file, even after mounting
 * debugfs). Its caller then returns KSFT_SKIP.
 */
static inline bool tap_start_skips(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	if (geteuid()) {
		printf("1..0 # SKIP needs root\n");
		return true;
	}
	if (access(SCHED_DEBUG_FILE, R_OK))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	if (access(SCHED_DEBUG_FILE, R_OK)) {
		printf("1..0 # SKIP no %s (CONFIG_DEBUG_FS, CONFIG_SCHED_DEBUG)\n",
		       SCHED_DEBUG_FILE);
		return true;
	}
	return false;
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static inline double clock_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline double now_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

/* Burn CPU for about ms milliseconds of wall time. */
static inline void spin_ms(double ms)
{
	double end = now_ms() + ms;

	while (now_ms() < end)
		;
}

/*
 * Burn ms milliseconds of the calling thread's own CPU time, however often
 * it is preempted meanwhile: a task that does so runs the same share of
 * each period on every kernel, so its util_avg can be compared. Returns
 * the CPU time it burned (ms and the last clock read's overshoot).
 */
static inline double spin_cpu_ms(double ms)
{
	double start = clock_ms(CLOCK_THREAD_CPUTIME_ID), now = start;

	while (now < start + ms)
		now = clock_ms(CLOCK_THREAD_CPUTIME_ID);
	return now - start;
}

/* "se.avg.util_avg   :   123" in /proc/<pid>/sched: 123, or -1 */
static inline long proc_sched_value(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	if (!p)
		return -1;
	p = strchr(p, ':');
	return p ? atol(p + 1) : -1;
}

static inline int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static inline int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* The whole file, NUL terminated, or NULL; free() it. */
static inline char *read_file(const char *path)
{
	size_t size = 1 << 16, len = 0;
	char *buf = malloc(size);
	ssize_t n;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (size - len < 4096) {
			char *bigger = realloc(buf, size * 2);

			if (!bigger)
				break;
			buf = bigger;
			size *= 2;
		}
		n = read(fd, buf + len, size - len - 1);
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* Does a cgroup v2 controllers file (one line of names) list "cpu"? */
static inline bool lists_cpu(const char *path)
{
	char *list = read_file(path), *word, *save;
	bool found = false;

	if (!list)
		return false;
	for (word = strtok_r(list, "\n ", &save); word && !found;
	     word = strtok_r(NULL, "\n ", &save))
		found = !strcmp(word, "cpu");
	free(list);
	return found;
}

/* One "  .<key> : <value>" line of a cfs_rq section of the debug file. */
struct cfs_field {
	int cpu;		/* from "cfs_rq[<cpu>]:" */
	const char *path;	/* task group path, "/" for the root */
	const char *key;	/* e.g. "util_avg", "se->avg.load_avg" */
	const char *value;	/* as printed */
};

/*
 * Call fn for every field of every cfs_rq section in text (the contents of
 * SCHED_DEBUG_FILE; modified in place). A section is a "cfs_rq[N]:<path>"
 * line followed by "  .<key> : <value>" lines, as kernel/sched/debug.c
 * prints it from 6.12 to 7.1; without CONFIG_FAIR_GROUP_SCHED the path is
 * missing, which is the root. fn returning non-zero stops the walk and is
 * returned.
 */
static inline int for_each_cfs_field(char *text,
				     int (*fn)(const struct cfs_field *, void *),
				     void *arg)
{
	char *line, *next, path[256] = "";
	int cpu = -1, ret;

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strncmp(line, "cfs_rq[", 7)) {
			char *colon = strchr(line, ':');

			cpu = atoi(line + 7);
			if (!colon)
				cpu = -1;
			else
				snprintf(path, sizeof(path), "%s",
					 colon[1] ? colon + 1 : "/");
			continue;
		}
		if (cpu < 0)
			continue;
		if (strncmp(line, "  .", 3)) {
			cpu = -1;	/* the section ended */
			continue;
		}
		{
			char key[64], *colon = strchr(line, ':');
			const char *k = line + 3;
			size_t len;
			struct cfs_field f;

			if (!colon)
				continue;
			len = colon - k;
			while (len && k[len - 1] == ' ')
				len--;
			if (len >= sizeof(key))
				continue;
			memcpy(key, k, len);
			key[len] = '\0';
			f.cpu = cpu;
			f.path = path;
			f.key = key;
			f.value = colon + 1;
			while (*f.value == ' ')
				f.value++;
			ret = fn(&f, arg);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* The averages of one cfs_rq, as the debug file shows them. */
struct cfs_figures {
	bool listed;		/* in the file, i.e. not fully decayed */
	long load_avg, runnable_avg, util_avg;
	long removed_load, removed_runnable, removed_util;
	long tg_load_avg;
};

/* Take field f into fig if it is one of the averages above. */
static inline void cfs_figures_take(struct cfs_figures *fig,
				    const struct cfs_field *f)
{
	long v = strtol(f->value, NULL, 10);

	fig->listed = true;
	if (!strcmp(f->key, "load_avg"))
		fig->load_avg = v;
	else if (!strcmp(f->key, "runnable_avg"))
		fig->runnable_avg = v;
	else if (!strcmp(f->key, "util_avg"))
		fig->util_avg = v;
	else if (!strcmp(f->key, "removed.load_avg"))
		fig->removed_load = v;
	else if (!strcmp(f->key, "removed.runnable_avg"))
		fig->removed_runnable = v;
	else if (!strcmp(f->key, "removed.util_avg"))
		fig->removed_util = v;
	else if (!strcmp(f->key, "tg_load_avg"))
		fig->tg_load_avg = v;
}

/* What stays on the cfs_rq: an average less what is pending removal. */
static inline long cfs_left(long avg, long removed)
{
	return avg > removed ? avg - removed : 0;
}

#endif /* GUEST_UTIL_H */
