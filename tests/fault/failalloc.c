/* failalloc.so: an LD_PRELOAD shim that fails one allocation of a run.
 *
 * FF_FAIL_AT=k makes the k-th call (counted from 1, in the order the
 * program makes them) of malloc, calloc, realloc, aligned_alloc or
 * posix_memalign fail as the C library does when memory runs out: NULL
 * (posix_memalign: ENOMEM) and errno ENOMEM.  Every other call goes to the
 * next definition (the C library's, or the sanitizer's when one comes
 * after this shim).  FF_FAIL_COUNT=FILE writes the number of calls made,
 * in decimal, to FILE when the program exits, so that a script can try
 * every k from 1 to that number (tests/fault/run.sh).  Calls made before
 * the shim's constructor (the dynamic loader's) are not counted.
 *
 * Written against the C library's documented behaviour, not fftools', and
 * used only by the tests. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void (*next_free)(void *);
static void *(*next_aligned_alloc)(size_t, size_t);
static int (*next_posix_memalign)(void **, size_t, size_t);

static atomic_ulong calls;     /* allocations counted so far */
static unsigned long fail_at;  /* the one to fail; 0: none */
static int armed;              /* counting (after the constructor) */
static atomic_int resolving;   /* inside dlsym: serve from bootstrap */

/* dlsym may itself allocate before the next definitions are known: those
 * few bytes come from here and are never freed. */
static _Alignas(max_align_t) unsigned char bootstrap[4096];
static atomic_size_t bootstrap_used;

static void *bootstrap_alloc(size_t size)
{
    size_t aligned = (size + 15) & ~(size_t)15;
    size_t at = atomic_fetch_add(&bootstrap_used, aligned);
    if (at + aligned > sizeof bootstrap)
        return NULL;
    return bootstrap + at;
}

static int from_bootstrap(const void *p)
{
    const unsigned char *b = p;
    return b >= bootstrap && b < bootstrap + sizeof bootstrap;
}

static void resolve(void)
{
    if (next_malloc)
        return;
    /* POSIX's way to take a function from dlsym. */
    atomic_store(&resolving, 1);
    *(void **)&next_calloc = dlsym(RTLD_NEXT, "calloc");
    *(void **)&next_malloc = dlsym(RTLD_NEXT, "malloc");
    *(void **)&next_realloc = dlsym(RTLD_NEXT, "realloc");
    *(void **)&next_free = dlsym(RTLD_NEXT, "free");
    *(void **)&next_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
    *(void **)&next_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    atomic_store(&resolving, 0);
}

/* 1 when this call is the one to fail. */
static int failing(void)
{
    if (!armed)
        return 0;
    if (atomic_fetch_add(&calls, 1) + 1 == fail_at) {
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

__attribute__((constructor)) static void start(void)
{
    const char *at = getenv("FF_FAIL_AT");
    resolve();
    fail_at = at ? strtoul(at, NULL, 10) : 0;
    armed = 1;
}

__attribute__((destructor)) static void finish(void)
{
    const char *path = getenv("FF_FAIL_COUNT");
    char text[32];
    unsigned long n = atomic_load(&calls);
    int fd, len = 0;
    char digits[32];
    if (!path)
        return;
    do
        digits[len++] = (char)('0' + n % 10);
    while ((n /= 10) > 0);
    for (fd = 0; fd < len; fd++)
        text[fd] = digits[len - 1 - fd];
    text[len++] = '\n';
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    if (write(fd, text, (size_t)len) != len)
        (void)0;
    close(fd);
}

void *malloc(size_t size)
{
    if (atomic_load(&resolving))
        return bootstrap_alloc(size);
    resolve();
    return failing() ? NULL : next_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    if (atomic_load(&resolving)) {
        void *p = n && size > SIZE_MAX / n ? NULL : bootstrap_alloc(n * size);
        if (p)
            memset(p, 0, n * size);
        return p;
    }
    resolve();
    return failing() ? NULL : next_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    resolve();
    if (from_bootstrap(p)) {
        void *q = malloc(size);
        if (q) {
            size_t left = (size_t)(bootstrap + sizeof bootstrap - (unsigned char *)p);
            memcpy(q, p, size < left ? size : left);
        }
        return q;
    }
    return failing() ? NULL : next_realloc(p, size);
}

void free(void *p)
{
    if (!p || from_bootstrap(p))
        return;
    resolve();
    next_free(p);
}

void *aligned_alloc(size_t align, size_t size)
{
    resolve();
    return failing() ? NULL : next_aligned_alloc(align, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
    resolve();
    if (failing())
        return ENOMEM;
    return next_posix_memalign(out, align, size);
}
