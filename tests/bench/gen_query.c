/* gen_query - inputs for tests/bench/bench_query.sh, reproducible from a
 * seed:
 *
 *   gen_query map W H SEED        a Moving AI map: open ground with
 *                                 scattered square blocks (about 10% walls)
 *   gen_query text N W H SEED     N random world positions `x y` inside a
 *                                 W x H map of cell size 1, 4 decimals
 *   gen_query binary N W H SEED   the same as little-endian f64 pairs
 *   gen_query run IN CMD ARGS...  run CMD with IN on its standard input and
 *                                 its output read through a pipe to the
 *                                 end; print the wall-clock seconds, CMD's
 *                                 CPU seconds (user + system), the bytes
 *                                 and the lines it wrote, and its status
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double unit(uint64_t *s)
{
    return (double)(next(s) >> 11) / 9007199254740992.0;
}

static void put_f64le(double v, FILE *f)
{
    unsigned char b[8];
    uint64_t bits;
    int k;

    memcpy(&bits, &v, 8);
    for (k = 0; k < 8; k++)
        b[k] = (unsigned char)(bits >> (8 * k));
    fwrite(b, 1, 8, f);
}

int main(int argc, char **argv)
{
    long long n, w, h, x, y, k;
    uint64_t seed;

    if (argc >= 4 && strcmp(argv[1], "run") == 0) {
        static char buf[1 << 16];
        long long bytes = 0, lines = 0;
        struct timespec t0, t1;
        struct rusage ru;
        int out[2], in, status;
        ssize_t got;
        pid_t pid;

        if ((in = open(argv[2], O_RDONLY)) < 0 || pipe(out) != 0)
            return 2;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if ((pid = fork()) < 0)
            return 2;
        if (pid == 0) {
            dup2(in, 0);
            dup2(out[1], 1);
            close(out[0]);
            close(out[1]);
            execv(argv[3], argv + 3);
            _exit(127);
        }
        close(in);
        close(out[1]);
        while ((got = read(out[0], buf, sizeof buf)) > 0) {
            const char *p = buf, *end = buf + got;
            bytes += got;
            while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
                lines++;
                p++;
            }
        }
        if (waitpid(pid, &status, 0) != pid)
            return 2;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        getrusage(RUSAGE_CHILDREN, &ru);
        printf("%.6f %.6f %lld %lld %d\n",
               (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9,
               (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                   (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6,
               bytes, lines, WIFEXITED(status) ? WEXITSTATUS(status) : 128);
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "map") == 0) {
        char *grid;
        w = atoll(argv[2]);
        h = atoll(argv[3]);
        seed = strtoull(argv[4], NULL, 10);
        if (w < 1 || h < 1 || !(grid = malloc((size_t)(w * h))))
            return 2;
        memset(grid, '.', (size_t)(w * h));
        for (k = 0; k < w * h / 160; k++) {  /* 4x4 blocks: about 10% walls */
            long long bx = (long long)(next(&seed) % (uint64_t)w), by = (long long)(next(&seed) % (uint64_t)h);
            for (y = by; y < by + 4 && y < h; y++)
                for (x = bx; x < bx + 4 && x < w; x++)
                    grid[y * w + x] = '@';
        }
        grid[(h / 2) * w + w / 2] = '.';  /* the goal of the bench */
        printf("type octile\nheight %lld\nwidth %lld\nmap\n", h, w);
        for (y = 0; y < h; y++) {
            fwrite(grid + y * w, 1, (size_t)w, stdout);
            putchar('\n');
        }
        free(grid);
        return fclose(stdout) != 0;
    }
    if (argc == 6 && (strcmp(argv[1], "text") == 0 || strcmp(argv[1], "binary") == 0)) {
        int text = argv[1][0] == 't';
        n = atoll(argv[2]);
        w = atoll(argv[3]);
        h = atoll(argv[4]);
        seed = strtoull(argv[5], NULL, 10);
        for (k = 0; k < n; k++) {
            double px = unit(&seed) * (double)w, py = unit(&seed) * (double)h;
            if (text)
                printf("%.4f %.4f\n", px, py);
            else {
                put_f64le(px, stdout);
                put_f64le(py, stdout);
            }
        }
        return fclose(stdout) != 0;
    }
    fprintf(stderr, "usage: gen_query map W H SEED | text|binary N W H SEED | run IN CMD...\n");
    return 2;
}
