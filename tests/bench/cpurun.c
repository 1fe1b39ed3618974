/* cpurun.c - the bench's timer of whole processes: cpurun N CMD [ARG...]
 * runs CMD N times (its output to /dev/null) and prints the median of
 * each run's processor time, user + system as wait4 reports it for that
 * one child, in milliseconds.  No shell between: the figure is the
 * process's own (exec, loading, the run, exit).  Exit 1 when a run cannot
 * be started or fails. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int n = argc > 2 ? atoi(argv[1]) : 0, k;
    double *ms;

    if (n < 1 || n > 100000) {
        fprintf(stderr, "usage: cpurun N CMD [ARG...]\n");
        return 2;
    }
    if (!(ms = malloc((size_t)n * sizeof *ms)))
        return 1;
    for (k = 0; k < n; k++) {
        struct rusage ru;
        int status;
        pid_t pid = fork();
        if (pid < 0)
            return 1;
        if (pid == 0) {
            int fd = open("/dev/null", O_WRONLY);
            if (fd >= 0) {
                dup2(fd, 1);
                dup2(fd, 2);
            }
            execvp(argv[2], argv + 2);
            _exit(127);
        }
        if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "cpurun: %s failed\n", argv[2]);
            return 1;
        }
        ms[k] = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    }
    qsort(ms, (size_t)n, sizeof *ms, cmp);
    printf("%.2f\n", n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2);
    free(ms);
    return 0;
}
