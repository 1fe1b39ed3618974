/* mapread.c - Moving AI and ffmap text maps, and format detection; see
 * mapread.h.  The PNG reader is in pngmap.c, the Tiled readers behind
 * tiledmap.c. */
#define _POSIX_C_SOURCE 200809L
#include "mapread.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grow.h"
#include "mapkind.h"
#include "pngmap.h"
#include "stream.h"
#include "tiledmap.h"

/* Terrain classes of the Moving AI letters (HOG2's Map::CanStep). */
enum { CLASS_GROUND = 0, CLASS_WATER = 1, CLASS_TREES = 2 };

/* A cursor over the input text with line numbers. */
typedef struct {
    const unsigned char *p, *end;
    const char *name;
    long line;  /* number of the line last taken */
} cursor;

/* Take the next line: [*s, *s + *n), without CR LF.  0 at end of input. */
static int next_line(cursor *c, const char **s, size_t *n)
{
    const unsigned char *start = c->p, *nl;

    if (c->p >= c->end)
        return 0;
    nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
    if (!nl)
        nl = c->end;
    *s = (const char *)start;
    *n = (size_t)(nl - start);
    if (*n > 0 && start[*n - 1] == '\r')
        (*n)--;
    c->p = nl < c->end ? nl + 1 : nl;
    c->line++;
    return 1;
}

/* Take the next line as a header line: into buf (cap bytes) with its NUL.
 * A line of cap bytes or more is refused, never cut, and so is a NUL
 * inside it (a C string would end there and read as what it is not).
 * Returns 1 on a line, 0 at the end of input, -1 with err set. */
static int header_line(cursor *c, char *buf, size_t cap, ff_error *err)
{
    const char *s, *nul;
    size_t n;

    if (!next_line(c, &s, &n))
        return 0;
    if (n >= cap) {
        ff_error_set(err, FF_EINPUT, c->name, c->line, (long)cap,
                     "header line longer than %zu bytes", cap - 1);
        return -1;
    }
    if ((nul = memchr(s, '\0', n)) != NULL) {
        ff_error_set(err, FF_EINPUT, c->name, c->line, (long)(nul - s) + 1,
                     "NUL byte in a header line");
        return -1;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    return 1;
}

static int moving_ai_letter(unsigned char ch, float *cost, uint8_t *cls)
{
    switch (ch) {
    case '.': case 'G': case 'S':
        *cost = 1;
        *cls = CLASS_GROUND;
        return 1;
    case 'W':
        *cost = 1;
        *cls = CLASS_WATER;
        return 1;
    case 'T':
        *cost = 1;
        *cls = CLASS_TREES;
        return 1;
    case '@': case 'O':
        *cost = INFINITY;
        *cls = CLASS_GROUND;
        return 1;
    }
    return 0;
}

static ff_status unknown_tile(ff_error *err, const char *name, long line, long col,
                              unsigned char ch)
{
    if (ch >= 0x20 && ch < 0x7f)
        return ff_error_set(err, FF_EINPUT, name, line, col,
                            "unknown tile '%c' (no legend entry)", ch);
    return ff_error_set(err, FF_EINPUT, name, line, col,
                        "unknown tile byte 0x%02x (no legend entry)", ch);
}

static ff_status read_moving_ai(cursor *c, const ff_map_options *opt, ff_grid *g,
                                ff_error *err)
{
    long long w = 0, h = 0;
    int have_w = 0, have_h = 0, got;
    const char *s;
    size_t n;
    char buf[FF_MOVINGAI_HEADER_LINE_MAX + 1];
    int64_t x, y;

    /* Header: "type octile", then "height H" and "width W" in either
     * order, then "map". */
    while ((got = header_line(c, buf, sizeof buf, err)) == 1) {
        char *key = buf, *num, *end;
        size_t klen;
        long long v;
        int is_h, is_w;
        if (!buf[0])
            continue;
        if (c->line == 1)
            continue;   /* "type octile", checked by the caller */
        if (strcmp(buf, "map") == 0)
            break;
        /* strtoll, not sscanf: sscanf's behaviour on an out-of-range
         * number is undefined. */
        key += strspn(key, " \t");
        klen = strcspn(key, " \t");
        is_h = klen == 6 && memcmp(key, "height", 6) == 0;
        is_w = klen == 5 && memcmp(key, "width", 5) == 0;
        num = key + klen;
        errno = 0;
        v = strtoll(num, &end, 10);
        if ((!is_h && !is_w) || end == num || end[strspn(end, " \t")] != '\0')
            return ff_error_set(err, FF_EINPUT, c->name, c->line, 1,
                                "expected 'height H', 'width W' or 'map', not '%.40s'", buf);
        num += strspn(num, " \t");
        if (errno == ERANGE)
            return ff_error_set(err, FF_EINPUT, c->name, c->line, (long)(num - buf) + 1,
                                "%s '%.30s' is out of range", is_h ? "height" : "width", num);
        if (is_h) {
            h = v;
            have_h = 1;
        } else {
            w = v;
            have_w = 1;
        }
    }
    if (got < 0)
        return FF_EINPUT;
    if (!have_w || !have_h)
        return ff_error_set(err, FF_EINPUT, c->name, c->line, 0,
                            "Moving AI header without %s", !have_w ? "'width'" : "'height'");
    if (ff_check_size(w, h, opt->max_cells, c->name, c->line, err) != FF_OK)
        return FF_EINPUT;
    /* Check the rows before allocating: a header may claim far more cells
     * than the input holds. */
    {
        cursor scan = *c;
        for (y = 0; y < h; y++) {
            if (!next_line(&scan, &s, &n))
                return ff_error_set(err, FF_EINPUT, c->name, scan.line + 1, 1,
                                    "map ends after %lld of %lld rows", (long long)y, h);
            if ((long long)n != w)
                return ff_error_set(err, FF_EINPUT, c->name, scan.line,
                                    (long)(n < (size_t)w ? n + 1 : (size_t)w + 1),
                                    "row %lld has %zu tiles, expected %lld (ragged rows)",
                                    (long long)y, n, w);
        }
    }
    if (ff_grid_alloc(g, w, h, opt->max_cells, c->name, err) != FF_OK)
        return err ? err->status : FF_ENOMEM;
    g->terrain = malloc((size_t)w * (size_t)h);
    if (!g->terrain)
        return ff_error_set(err, FF_ENOMEM, c->name, 0, 0, "out of memory");
    for (y = 0; y < h; y++) {
        next_line(c, &s, &n);
        for (x = 0; x < w; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            if (!moving_ai_letter((unsigned char)s[x], &g->cost[i], &g->terrain[i]))
                return unknown_tile(err, c->name, c->line, (long)x + 1, (unsigned char)s[x]);
        }
    }
    while (next_line(c, &s, &n))
        if (n > 0)
            return ff_error_set(err, FF_EINPUT, c->name, c->line, 1,
                                "more rows than the header's height %lld", h);
    ff_grid_drop_one_class(g);
    return FF_OK;
}

/* One legend entry of an ffmap. */
typedef struct {
    int defined;
    float cost;       /* +inf for a wall */
    uint8_t oneway;   /* FF_ONEWAY_ALL unless restricted */
    int goal, spawn;
    uint8_t cls;      /* terrain class (Moving AI letters only) */
} legend;

static ff_status legend_line(cursor *c, char *buf, legend *table, ff_error *err)
{
    /* buf is "legend CH SPEC..." */
    char *p = buf + 6, *word[4], *save = NULL;
    unsigned char ch;
    legend e = { 1, 1, FF_ONEWAY_ALL, 0, 0, CLASS_GROUND };
    int nw = 0, k = 0;
    char *tok;

    if (*p != ' ' && *p != '\t')
        return ff_error_set(err, FF_EINPUT, c->name, c->line, 1, "bad legend line");
    while (*p == ' ' || *p == '\t')
        p++;
    ch = (unsigned char)*p;
    if (ch && !p[1])
        return ff_error_set(err, FF_EINPUT, c->name, c->line, (long)(p - buf) + 1,
                            "missing cost for tile '%c'", ch);
    if (!ch || (p[1] != ' ' && p[1] != '\t'))
        return ff_error_set(err, FF_EINPUT, c->name, c->line, (long)(p - buf) + 1,
                            "legend wants one tile character, then its meaning");
    for (tok = strtok_r(p + 1, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        if (nw == 4)
            return ff_error_set(err, FF_EINPUT, c->name, c->line, (long)(tok - buf) + 1,
                                "too many words in the legend of '%c'", ch);
        word[nw++] = tok;
    }
    if (nw == 0)
        return ff_error_set(err, FF_EINPUT, c->name, c->line, (long)(p - buf) + 1,
                            "missing cost for tile '%c'", ch);
    if (table[ch].defined)
        return ff_error_set(err, FF_EINPUT, c->name, c->line, (long)(p - buf) + 1,
                            "tile '%c' has two legend entries", ch);
    if (strcmp(word[0], "wall") == 0) {
        if (nw != 1)
            return ff_error_set(err, FF_EINPUT, c->name, c->line, (long)(word[1] - buf) + 1,
                                "a wall takes no cost or direction");
        e.cost = INFINITY;
        table[ch] = e;
        return FF_OK;
    }
    if (strcmp(word[0], "goal") == 0 || strcmp(word[0], "spawn") == 0) {
        e.goal = word[0][0] == 'g';
        e.spawn = !e.goal;
        k = 1;
    }
    if (k >= nw)
        return ff_error_set(err, FF_EINPUT, c->name, c->line, (long)(word[0] - buf) + 1,
                            "missing cost for tile '%c'", ch);
    {
        char *end;
        double v;
        errno = 0;
        v = strtod(word[k], &end);
        if (end == word[k] || *end || !ff_range_ok(FF_RANGE_COST, v))
            return ff_error_set(err, FF_EINPUT, c->name, c->line, (long)(word[k] - buf) + 1,
                                "cost '%s' of tile '%c' must be a number %s", word[k], ch,
                                ff_range_text(FF_RANGE_COST));
        e.cost = (float)v;
    }
    k++;
    if (k < nw) {
        long col = (long)(word[k] - buf) + 1;
        if (ff_dirs_parse(word[k], &e.oneway) < 0 || k + 1 < nw)
            return ff_error_set(err, FF_EINPUT, c->name, c->line, col,
                                "bad directions for tile '%c' (a list like N,NE,E)", ch);
    }
    table[ch] = e;
    return FF_OK;
}

/* One header line of an ffmap before its 'map' line, in buf: a legend
 * entry (into table; *any_legend set), the cell size or the origin. */
static ff_status ffmap_header_line(cursor *c, char *buf, legend *table, int *any_legend,
                                   ff_grid *g, ff_error *err)
{
    if (strncmp(buf, "legend", 6) == 0) {
        if (legend_line(c, buf, table, err) != FF_OK)
            return FF_EINPUT;
        *any_legend = 1;
    } else if (strncmp(buf, "cell ", 5) == 0) {
        char *end;
        double v = strtod(buf + 5, &end);
        while (*end == ' ' || *end == '\t')
            end++;
        if (end == buf + 5 || *end || !ff_grid_geometry_ok(v, 0, 0))
            return ff_error_set(err, FF_EINPUT, c->name, c->line, 6,
                                "cell size '%s' must be a number from %g to %g", buf + 5,
                                FF_CELL_MIN, FF_CELL_MAX);
        g->cell_size = v;
    } else if (strncmp(buf, "origin ", 7) == 0) {
        char *end, *end2;
        double x = strtod(buf + 7, &end), y = strtod(end, &end2);
        while (*end2 == ' ' || *end2 == '\t')
            end2++;
        if (end == buf + 7 || end2 == end || *end2 || !ff_grid_geometry_ok(1, x, y))
            return ff_error_set(err, FF_EINPUT, c->name, c->line, 8,
                                "origin '%s' wants two numbers from -%g to %g", buf + 7,
                                FF_ORIGIN_MAX, FF_ORIGIN_MAX);
        g->origin_x = x;
        g->origin_y = y;
    } else {
        return ff_error_set(err, FF_EINPUT, c->name, c->line, 1,
                            "unknown ffmap line '%.40s' (legend, cell, origin or map)", buf);
    }
    return FF_OK;
}

/* The header of an ffmap, through its 'map' line: the legend into table
 * (Moving AI's letters when it has none), the geometry into g. */
static ff_status read_ffmap_header(cursor *c, legend *table, ff_grid *g, ff_error *err)
{
    char buf[FF_FFMAP_HEADER_LINE_MAX + 1];
    size_t k;
    int any_legend = 0;
    ff_status st;

    memset(table, 0, 256 * sizeof *table);
    for (;;) {
        int got = header_line(c, buf, sizeof buf, err);
        if (got < 0)
            return FF_EINPUT;
        if (!got)
            return ff_error_set(err, FF_EINPUT, c->name, c->line, 0,
                                "ffmap ends before its 'map' line");
        if (c->line == 1)
            continue;  /* "ffmap 1", checked by the caller */
        {
            char *p = buf;
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p || *p == '#')
                continue;
        }
        if (strcmp(buf, "map") == 0)
            break;
        if ((st = ffmap_header_line(c, buf, table, &any_legend, g, err)) != FF_OK)
            return st;
    }
    if (!any_legend) {
        static const char letters[] = ".GSWT@O";
        for (k = 0; letters[k]; k++) {
            legend *e = &table[(unsigned char)letters[k]];
            moving_ai_letter((unsigned char)letters[k], &e->cost, &e->cls);
            e->defined = 1;
            e->oneway = FF_ONEWAY_ALL;
        }
    }
    return FF_OK;
}

/* Count and check the rows that follow c (c itself does not move): *w
 * tiles a row, *h rows, none ragged or empty. */
static ff_status measure_rows(const cursor *c, size_t *w, size_t *h, ff_error *err)
{
    cursor scan = *c;
    size_t blank_run = 0, n;
    const char *s;

    *w = *h = 0;
    while (next_line(&scan, &s, &n)) {
        if (n == 0) {
            blank_run++;
            continue;
        }
        if (blank_run > 0)
            return ff_error_set(err, FF_EINPUT, c->name, scan.line - (long)blank_run, 1,
                                "empty row inside the map (ragged rows)");
        if (*h == 0)
            *w = n;
        else if (n != *w)
            return ff_error_set(err, FF_EINPUT, c->name, scan.line,
                                (long)(n < *w ? n + 1 : *w + 1),
                                "row %zu has %zu tiles, expected %zu (ragged rows)", *h, n, *w);
        (*h)++;
    }
    if (*h == 0)
        return ff_error_set(err, FF_EINPUT, c->name, c->line, 0, "the map has no rows");
    return FF_OK;
}

/* The tiles of the rows at c, by table, into g (allocated w x h, with
 * its one-way and class arrays): costs, classes, one-way cells, goals and
 * spawns. */
static ff_status fill_rows(cursor *c, const legend *table, size_t w, size_t h, ff_grid *g,
                           ff_error *err)
{
    int any_oneway = 0;
    const char *s;
    size_t n, k, spawn_cap = g->nspawns;

    for (k = 0; k < h; k++) {
        size_t x;
        next_line(c, &s, &n);
        for (x = 0; x < w; x++) {
            const legend *e = &table[(unsigned char)s[x]];
            size_t i = k * w + x;
            if (!e->defined)
                return unknown_tile(err, c->name, c->line, (long)x + 1, (unsigned char)s[x]);
            g->cost[i] = e->cost;
            g->oneway[i] = e->oneway;
            g->terrain[i] = e->cls;
            if (e->oneway != FF_ONEWAY_ALL)
                any_oneway = 1;
            if (e->goal &&
                ff_grid_add_goal(g, (int64_t)x, (int64_t)k, c->name, c->line, (long)x + 1, err) != FF_OK)
                return err ? err->status : FF_EINPUT;
            if (e->spawn) {
                uint32_t *p = ff_grow(g->spawns, &spawn_cap, g->nspawns + 1, sizeof *p, 16);
                if (!p)
                    return ff_error_set(err, FF_ENOMEM, c->name, 0, 0, "out of memory");
                g->spawns = p;
                p[g->nspawns++] = (uint32_t)i;
            }
        }
    }
    if (!any_oneway) {
        free(g->oneway);
        g->oneway = NULL;
    }
    return FF_OK;
}

/* An ffmap (man 5 ffmap) at c, after its first line: its header, then
 * its rows. */
static ff_status read_ffmap(cursor *c, const ff_map_options *opt, ff_grid *g,
                            ff_error *err)
{
    legend table[256];
    size_t w, h;
    ff_status st;

    if ((st = read_ffmap_header(c, table, g, err)) != FF_OK ||
        (st = measure_rows(c, &w, &h, err)) != FF_OK)
        return st;
    if (ff_grid_alloc(g, (int64_t)w, (int64_t)h, opt->max_cells, c->name, err) != FF_OK)
        return err ? err->status : FF_EINPUT;
    g->oneway = malloc(w * h);
    g->terrain = malloc(w * h);
    if (!g->oneway || !g->terrain)
        return ff_error_set(err, FF_ENOMEM, c->name, 0, 0, "out of memory");
    if ((st = fill_rows(c, table, w, h, g, err)) != FF_OK)
        return st;
    ff_grid_drop_one_class(g);
    return FF_OK;
}

int ff_map_sniff(FILE *f)
{
    unsigned char head[16];
    long at = ftell(f);
    size_t n;

    if (at < 0 || fseek(f, at, SEEK_SET) != 0)
        return 0;
    n = fread(head, 1, sizeof head, f);
    if (fseek(f, at, SEEK_SET) != 0)
        return 0;
    clearerr(f);
    return ff_map_kind(head, n) != NULL;
}

ff_status ff_map_parse(const unsigned char *data, size_t size, const char *name,
                       const ff_map_options *opt, ff_grid *g, ff_error *err)
{
    static const unsigned char png_magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    cursor c = { data, data + size, name, 0 };
    ff_status st;

    ff_grid_init(g);
    if (size == 0)
        return ff_error_set(err, FF_EINPUT, name, 0, 0, "empty input: no map");
    if (size >= 8 && memcmp(data, png_magic, 8) == 0)
        return ff_map_parse_png(data, size, name, opt, g, err);
    if (ff_map_starts_with_word(data, size, "ff")) {
        /* An ff stream: take the map of its first field (with its goals,
         * moves, corners and radius), drop the fields made from it. */
        FILE *f = fmemopen((void *)data, size, "rb");
        ff_reader r;
        ff_field field;
        if (!f)
            return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory");
        ff_reader_init(&r, f, name);
        r.max_cells = opt->max_cells;
        st = ff_field_read(&r, &field, err);
        fclose(f);
        if (st == FF_ENOTFOUND)
            st = ff_error_set(err, FF_EINPUT, name, 1, 1, "empty stream");
        if (st != FF_OK)
            return st;
        *g = field.grid;
        ff_grid_init(&field.grid);
        ff_field_free(&field);
        return FF_OK;
    }
    if (size >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
        return ff_error_set(err, FF_EINPUT, name, 1, 1,
                            "the file starts with a UTF-8 byte-order mark: save it without one");
    if (ff_map_is_tiled(data, size))
        return ff_map_parse_tiled(data, size, name, opt, g, err);
    if (ff_map_starts_with_word(data, size, "type")) {
        const char *s;
        size_t n;
        cursor probe = c;
        next_line(&probe, &s, &n);
        while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
            n--;
        if (n != 11 || memcmp(s, "type octile", 11) != 0)
            return ff_error_set(err, FF_EINPUT, name, 1, 6,
                                "unsupported Moving AI map type (this reads 'type octile')");
        st = read_moving_ai(&c, opt, g, err);
    } else if (ff_map_starts_with_word(data, size, "ffmap")) {
        const char *s;
        size_t n;
        cursor probe = c;
        next_line(&probe, &s, &n);
        if (n != 7 || memcmp(s, "ffmap 1", 7) != 0)
            return ff_error_set(err, FF_EINPUT, name, 1, 1,
                                "unsupported ffmap version (this reads 'ffmap 1')");
        st = read_ffmap(&c, opt, g, err);
    } else
        return ff_error_set(err, FF_EINPUT, name, 1, 1,
                            "unknown map format: expected 'type octile' (Moving AI), "
                            "'ffmap 1', a Tiled map (JSON or XML), an ff stream or a PNG");
    if (st != FF_OK)
        ff_grid_free(g);
    return st;
}

/* Whether data (the first bytes of an input) can begin a map: when not,
 * ff_map_parse refuses it from these bytes alone.  Blanks may come
 * before a Tiled map's first byte, however many. */
static int map_format_known(const unsigned char *data, size_t size)
{
    return memchr(" \t\r\n", data[0], 4) || (size >= 8 && memcmp(data, "\x89PNG", 4) == 0) ||
           ff_map_starts_with_word(data, size, "ff") || ff_map_is_tiled(data, size) ||
           ff_map_starts_with_word(data, size, "type") ||
           ff_map_starts_with_word(data, size, "ffmap");
}

ff_status ff_map_read(FILE *f, const char *name, const ff_map_options *opt,
                      ff_grid *g, ff_error *err)
{
    uint64_t max_cells = opt->max_cells ? opt->max_cells : FF_MAX_CELLS_DEFAULT;
    /* A text map spends at most a few bytes a cell; allow room for
     * comments and line ends, and refuse anything larger unread. */
    size_t limit = (size_t)(max_cells * 3 + ((uint64_t)1 << 26)), cap = 1 << 16, n = 0;
    unsigned char *data;
    struct stat sb;
    int sniffed = 0;
    ff_status st;

    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > limit)
        return ff_error_set(err, FF_EINPUT, name, 0, 0,
                            "%lld bytes, refused unread: larger than any map of at most %llu "
                            "cells (%zu bytes)", (long long)sb.st_size,
                            (unsigned long long)max_cells, limit);
    if (!(data = malloc(cap)))
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory");
    for (;;) {
        size_t got;
        if (n == cap) {
            unsigned char *p;
            if (cap >= limit) {
                free(data);
                return ff_error_at_byte(err, FF_EINPUT, name, (long long)n,
                                        "input longer than %zu bytes: larger than any map of "
                                        "at most %llu cells", limit, (unsigned long long)max_cells);
            }
            cap = cap * 2 > limit ? limit : cap * 2;
            p = realloc(data, cap);
            if (!p) {
                free(data);
                return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory");
            }
            data = p;
        }
        got = fread(data + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        /* No format, no need to read on: the parse below refuses these
         * first bytes as it would refuse the whole. */
        if (!sniffed && n >= 64 && (sniffed = 1) && !map_format_known(data, n))
            break;
    }
    if (ferror(f)) {
        free(data);
        return ff_error_set(err, FF_EIO, name, 0, 0, "read error: %s", strerror(errno));
    }
    st = ff_map_parse(data, n, name, opt, g, err);
    free(data);
    return st;
}
