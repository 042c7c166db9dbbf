/*
 * sd_threads.h - find this process's threads by name (what softdoca's own
 * threads are called: sd-dma-wN, sd-watchdog, sd-ucx-serve, ...), through
 * /proc/self/task/TID/comm.
 */
#ifndef SD_THREADS_H
#define SD_THREADS_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>

/*
 * How many threads of this process are called exactly `name`; the /proc
 * folder of the first one goes to `first` (when not NULL).  -1 when
 * /proc/self/task cannot be read.
 */
static inline int sd_threads_named(const char *name, char *first, size_t first_len)
{
	DIR *tasks = opendir("/proc/self/task");
	struct dirent *de;
	int n = 0;

	if (tasks == NULL)
		return -1;
	while ((de = readdir(tasks)) != NULL) {
		char path[300], comm[64] = "";
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue; /* the thread ended meanwhile */
		if (fgets(comm, sizeof(comm), f) != NULL && strcspn(comm, "\n") == strlen(name) &&
		    strncmp(comm, name, strlen(name)) == 0) {
			if (n == 0 && first != NULL)
				snprintf(first, first_len, "/proc/self/task/%s", de->d_name);
			n++;
		}
		fclose(f);
	}
	closedir(tasks);
	return n;
}

#endif /* SD_THREADS_H */
