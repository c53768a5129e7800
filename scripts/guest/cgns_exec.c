// SPDX-License-Identifier: GPL-2.0
/*
 * cgns_exec COMMAND [ARGS...]: run COMMAND in a new cgroup namespace and
 * mount namespace (mounts private), as a container's init starts; its
 * cgroup namespace's root is the cgroup it runs in. busybox's unshare
 * has no -C.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/mount.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s COMMAND [ARGS...]\n", argv[0]);
		return 2;
	}
	if (unshare(CLONE_NEWCGROUP | CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		perror("cgns_exec");
		return 1;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
