/* tiled.c - Tiled maps: the convention that makes a grid of the tiles'
 * custom properties, and the external tilesets; see tiled.h and
 * man 5 fftiled.  The JSON and XML syntax is in tiledjson.c and
 * tiledxml.c, the layer data encodings in tiledata.c, and tiledmap.c
 * tells the formats apart. */
#define _POSIX_C_SOURCE 200809L
#include "tiled.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grow.h"
#include "infile.h"

/* Classes that Moving AI maps have, by the numbers their letters get
 * there (man 5 ff): a Tiled map of these classes is the same map. */
static const char *const moving_ai_class[] = { "ground", "water", "trees" };
#define MAX_CLASSES 256

void ff_tiled_init(ff_tiled *t, const char *name, const ff_map_options *opt, ff_error *err)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    t->opt = opt;
    t->err = err ? err : &t->own_err;
    t->cell_size = 1;
}

void ff_tiled_free(ff_tiled *t)
{
    size_t k, j;

    for (k = 0; k < t->nsets; k++) {
        for (j = 0; !t->sets[k].borrowed && j < t->sets[k].ntiles; j++)
            free(t->sets[k].tiles[j].cls);
        if (!t->sets[k].borrowed)
            free(t->sets[k].tiles);
        free(t->sets[k].name);
        free(t->sets[k].file);
    }
    free(t->sets);
    free(t->top);
    free(t->marks);
    memset(t, 0, sizeof *t);
}

static ff_status no_memory(ff_tiled *t)
{
    return ff_error_set(t->err, FF_ENOMEM, t->name, 0, 0, "out of memory");
}

static char *copy_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);

    if (c)
        memcpy(c, s, n);
    return c;
}

ff_status ff_tiled_header(ff_tiled *t, const char *orientation, int infinite, int64_t w,
                          int64_t h, double tile_w, double tile_h, long line)
{
    if (strcmp(orientation, "orthogonal") != 0)
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                            "%.40s map: this reads orthogonal Tiled maps only", orientation);
    if (infinite)
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                            "infinite map: this reads finite Tiled maps only (Map > Map "
                            "Properties > Infinite off)");
    if (ff_check_size(w, h, t->opt->max_cells, t->name, line, t->err) != FF_OK)
        return FF_EINPUT;
    if (!(tile_w > 0) || !(tile_h > 0) || !isfinite(tile_w) || !isfinite(tile_h))
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                            "tile size %gx%g must be positive", tile_w, tile_h);
    t->w = (int32_t)w;
    t->h = (int32_t)h;
    t->tile_w = tile_w;
    t->tile_h = tile_h;
    return FF_OK;
}

ff_status ff_tiled_map_property(ff_tiled *t, const ff_tiled_prop *p, long line)
{
    if (strcmp(p->name, "cell") != 0)
        return FF_OK;
    if (p->kind != FF_TILED_NUMBER || !ff_range_ok(FF_RANGE_CELL, p->number))
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                            "map property 'cell' (world units per cell) must be a number %s",
                            ff_range_text(FF_RANGE_CELL));
    t->cell_size = p->number;
    return FF_OK;
}

ff_tiled_tileset *ff_tiled_tileset_add(ff_tiled *t, int64_t firstgid, long line)
{
    ff_tiled_tileset *set;

    if (firstgid < 1 || firstgid > (int64_t)~FF_TILED_FLAG_BITS) {
        ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                     "tileset firstgid %lld must be 1 to %u", (long long)firstgid,
                     ~FF_TILED_FLAG_BITS);
        return NULL;
    }
    if (!(set = ff_grow(t->sets, &t->sets_cap, t->nsets + 1, sizeof *set, 8))) {
        no_memory(t);
        return NULL;
    }
    t->sets = set;
    set = &t->sets[t->nsets++];
    memset(set, 0, sizeof *set);
    set->firstgid = (uint32_t)firstgid;
    if (!(set->name = copy_text("")) || !(set->file = copy_text(t->name))) {
        no_memory(t);
        return NULL;
    }
    return set;
}

ff_status ff_tiled_tileset_info(ff_tiled *t, ff_tiled_tileset *set, const char *name,
                                int64_t tilecount, const char *file, long line)
{
    char *n = copy_text(name), *f = copy_text(file);

    if (!n || !f) {
        free(n);
        free(f);
        return no_memory(t);
    }
    free(set->name);
    free(set->file);
    set->name = n;
    set->file = f;
    if (tilecount > (int64_t)~FF_TILED_FLAG_BITS)
        return ff_error_set(t->err, FF_EINPUT, file, line, 0,
                            "tileset '%.60s' claims %lld tiles", name, (long long)tilecount);
    set->tilecount = tilecount > 0 ? (uint32_t)tilecount : 0;
    return FF_OK;
}

ff_tiled_tile *ff_tiled_tile_add(ff_tiled *t, ff_tiled_tileset *set, int64_t id,
                                 const char *file, long line)
{
    ff_tiled_tile *tile;

    if (id < 0 || id > (int64_t)~FF_TILED_FLAG_BITS) {
        ff_error_set(t->err, FF_EINPUT, file, line, 0, "tile id %lld of tileset '%.60s' is out of range",
                     (long long)id, set->name);
        return NULL;
    }
    if (set->external) {  /* (its tiles may be another set's too) */
        ff_error_set(t->err, FF_EINPUT, file, line, 0,
                     "tile %lld in the map for tileset '%.60s', which is read from a file",
                     (long long)id, set->name);
        return NULL;
    }
    if (!(tile = ff_grow(set->tiles, &set->cap, set->ntiles + 1, sizeof *tile, 8))) {
        no_memory(t);
        return NULL;
    }
    set->tiles = tile;
    tile = &set->tiles[set->ntiles++];
    memset(tile, 0, sizeof *tile);
    tile->id = (uint32_t)id;
    return tile;
}

static const char *kind_name(ff_tiled_kind k)
{
    return k == FF_TILED_STRING ? "a string" : k == FF_TILED_NUMBER ? "a number"
           : k == FF_TILED_BOOL ? "a bool" : "of another type";
}

ff_status ff_tiled_tile_property(ff_tiled *t, const ff_tiled_tileset *set, ff_tiled_tile *tile,
                                 const ff_tiled_prop *p, const char *file, long line)
{
    static const struct {
        const char *name;
        ff_tiled_kind kind;
        const char *want;
    } known[] = {
        { "cost", FF_TILED_NUMBER, "a float >= 0" },
        { "wall", FF_TILED_BOOL, "a bool" },
        { "goal", FF_TILED_BOOL, "a bool" },
        { "spawn", FF_TILED_BOOL, "a bool" },
        { "oneway", FF_TILED_STRING, "a string of directions like N,NE,E" },
        { "class", FF_TILED_STRING, "a string" },
    };
    size_t k;

    for (k = 0; k < sizeof known / sizeof *known; k++)
        if (strcmp(p->name, known[k].name) == 0)
            break;
    if (k == sizeof known / sizeof *known)
        return FF_OK;
    if (p->kind != known[k].kind)
        return ff_error_set(t->err, FF_EINPUT, file, line, 0,
                            "property '%s' of tile %u of tileset '%.60s' is %s: it must be %s",
                            p->name, tile->id, set->name, kind_name(p->kind), known[k].want);
    switch (k) {
    case 0:
        if (!ff_range_ok(FF_RANGE_COST, p->number))
            return ff_error_set(t->err, FF_EINPUT, file, line, 0,
                                "cost %g of tile %u of tileset '%.60s' must be a number %s",
                                p->number, tile->id, set->name, ff_range_text(FF_RANGE_COST));
        tile->has_cost = 1;
        tile->cost = (float)p->number;
        break;
    case 1: tile->wall = p->boolean; break;
    case 2: tile->goal = p->boolean; break;
    case 3: tile->spawn = p->boolean; break;
    case 4:
        if (ff_dirs_parse(p->text, &tile->oneway) < 0)
            return ff_error_set(t->err, FF_EINPUT, file, line, 0,
                                "oneway '%.40s' of tile %u of tileset '%.60s': want a list of "
                                "N E S W NE SE SW NW like N,NE,E", p->text, tile->id, set->name);
        tile->has_oneway = 1;
        break;
    default: {
        char *c;
        if (!p->text[0])
            return ff_error_set(t->err, FF_EINPUT, file, line, 0,
                                "empty class of tile %u of tileset '%.60s'", tile->id, set->name);
        if (!(c = copy_text(p->text)))
            return no_memory(t);
        free(tile->cls);
        tile->cls = c;
    }
    }
    return FF_OK;
}

/* The whole of a regular file, at most FF_TILED_MAX_TILESET_BYTES. */
static ff_status read_file(ff_tiled *t, const char *path, const char *source, long line,
                           unsigned char **data, size_t *size)
{
    ff_error why;
    FILE *f = ff_file_open_regular(path, &why);
    struct stat sb;
    size_t got;

    *data = NULL;
    if (!f)
        return ff_error_set(t->err, why.status, t->name, line, 0,
                            "external tileset '%.100s': %.100s: %s", source, path, why.msg);
    if (fstat(fileno(f), &sb) != 0 || sb.st_size < 0 ||
        (uint64_t)sb.st_size > FF_TILED_MAX_TILESET_BYTES) {
        fclose(f);
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                            "external tileset '%.100s' is not a file of at most %zu bytes",
                            source, FF_TILED_MAX_TILESET_BYTES);
    }
    if (!(*data = malloc((size_t)sb.st_size + 1))) {
        fclose(f);
        return no_memory(t);
    }
    got = fread(*data, 1, (size_t)sb.st_size + 1, f);
    if (ferror(f)) {
        fclose(f);
        free(*data);
        *data = NULL;
        return ff_error_set(t->err, FF_EIO, path, 0, 0, "read error");
    }
    fclose(f);
    if (got > (size_t)sb.st_size) {
        /* Not the file fstat described: it grew as it was read. */
        free(*data);
        *data = NULL;
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                            "external tileset '%.100s': %.100s grew while it was read", source, path);
    }
    *size = got;
    return FF_OK;
}

/* An earlier tileset read from the file sb describes, or NULL. */
static const ff_tiled_tileset *read_before(const ff_tiled *t, const ff_tiled_tileset *set,
                                           const struct stat *sb)
{
    size_t k;
    for (k = 0; k < t->nsets; k++)
        if (&t->sets[k] != set && t->sets[k].external && !t->sets[k].borrowed &&
            t->sets[k].dev == (uint64_t)sb->st_dev && t->sets[k].ino == (uint64_t)sb->st_ino)
            return &t->sets[k];
    return NULL;
}

/* Make set a second name of the tiles of first (read from the same file):
 * its own name, file and firstgid, the tiles borrowed. */
static ff_status borrow(ff_tiled *t, ff_tiled_tileset *set, const ff_tiled_tileset *first)
{
    ff_status st = ff_tiled_tileset_info(t, set, first->name, first->tilecount, first->file, 0);

    if (st != FF_OK)
        return st;
    set->tiles = first->tiles;
    set->ntiles = first->ntiles;
    set->cap = first->cap;
    set->external = 1;
    set->dev = first->dev;
    set->ino = first->ino;
    set->borrowed = 1;
    return FF_OK;
}

ff_status ff_tiled_external(ff_tiled *t, ff_tiled_tileset *set, const char *source, long line)
{
    const char *slash;
    const ff_tiled_tileset *first;
    unsigned char *data;
    size_t dir_len, size = 0;
    char *path;
    struct stat sb;
    int known;
    ff_status st;

    if (!t->opt->path)
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                            "external tileset '%.100s': a map read from standard input cannot "
                            "have one (give the map's file name, or embed the tileset)", source);
    if (!source[0])
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0, "external tileset without a name");
    slash = strrchr(t->opt->path, '/');
    dir_len = source[0] == '/' || !slash ? 0 : (size_t)(slash - t->opt->path) + 1;
    if (!(path = malloc(dir_len + strlen(source) + 1)))
        return no_memory(t);
    memcpy(path, t->opt->path, dir_len);
    strcpy(path + dir_len, source);
    known = stat(path, &sb) == 0;
    if (known && (first = read_before(t, set, &sb)) != NULL) {
        free(path);
        return borrow(t, set, first);
    }
    if ((st = read_file(t, path, source, line, &data, &size)) != FF_OK) {
        free(path);
        return st;
    }
    st = t->read_tileset ? t->read_tileset(t, set, data, size, path)
                         : ff_error_set(t->err, FF_EINPUT, path, 0, 0, "no tileset reader");
    if (st == FF_OK && known) {
        set->external = 1;
        set->dev = (uint64_t)sb.st_dev;
        set->ino = (uint64_t)sb.st_ino;
    }
    free(data);
    free(path);
    return st;
}

ff_status ff_tiled_layer(ff_tiled *t, const char *name, int visible, int64_t lw, int64_t lh,
                         long line, int *counts)
{
    *counts = t->opt->layer ? strcmp(name, t->opt->layer) == 0 : visible;
    snprintf(t->layer_name, sizeof t->layer_name, "%s", name);
    if ((lw >= 0 && lw != t->w) || (lh >= 0 && lh != t->h))
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                            "tile layer '%.60s' is %lldx%lld, the map %dx%d", name,
                            (long long)lw, (long long)lh, t->w, t->h);
    if (*counts && t->opt->layer && t->layers > 0)
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                            "two tile layers are named '%.60s': --layer wants one", name);
    return FF_OK;
}

ff_status ff_tiled_layer_ready(ff_tiled *t, uint64_t max_cells, long line)
{
    size_t n = (size_t)t->w * (size_t)t->h;

    if (t->w == 0)
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0, "tile layer before the map's size");
    if ((uint64_t)n > max_cells)
        return ff_error_set(t->err, FF_EINPUT, t->name, line, 0,
                            "tile layer '%s': its data cannot hold the map's %dx%d cells "
                            "(truncated?)", t->layer_name, t->w, t->h);
    if (!t->top && !(t->top = calloc(n, sizeof *t->top)))
        return ff_error_set(t->err, FF_ENOMEM, t->name, 0, 0, "out of memory for %zu cells", n);
    t->layers++;
    return FF_OK;
}

ff_status ff_tiled_object(ff_tiled *t, const char *cls, const char *shape, long id, double x,
                          double y, double w, double h, double rotation, const char *file,
                          long line)
{
    ff_tiled_mark *m;
    int goal = strcmp(cls, "goal") == 0, point = strcmp(shape, "point") == 0;

    if (!goal && strcmp(cls, "spawn") != 0)
        return FF_OK;
    if (!point && strcmp(shape, "rectangle") != 0)
        return ff_error_set(t->err, FF_EINPUT, file, line, 0,
                            "%s object %ld is a%s %s: only points and rectangles mark cells",
                            cls, id, shape[0] == 'e' ? "n" : "", shape);
    if (rotation != 0)
        return ff_error_set(t->err, FF_EINPUT, file, line, 0,
                            "%s object %ld is rotated: a rotated object marks no cells", cls, id);
    if (!isfinite(x) || !isfinite(y) || !isfinite(w) || !isfinite(h) || fabs(x) > 1e15 ||
        fabs(y) > 1e15 || fabs(w) > 1e15 || fabs(h) > 1e15 || (!point && !(w > 0 && h > 0)))
        return ff_error_set(t->err, FF_EINPUT, file, line, 0,
                            "%s object %ld: position %g,%g and size %gx%g must be finite, the "
                            "size positive", cls, id, x, y, w, h);
    if (!(m = ff_grow(t->marks, &t->marks_cap, t->nmarks + 1, sizeof *m, 8)))
        return no_memory(t);
    t->marks = m;
    m = &t->marks[t->nmarks++];
    m->goal = goal;
    m->point = point;
    m->x = x;
    m->y = y;
    m->w = w;
    m->h = h;
    m->id = id;
    return FF_OK;
}

/* ---- the convention ---- */

static int cmp_set(const void *a, const void *b)
{
    uint32_t x = ((const ff_tiled_tileset *)a)->firstgid, y = ((const ff_tiled_tileset *)b)->firstgid;
    return (x > y) - (x < y);
}

static int cmp_tile(const void *a, const void *b)
{
    uint32_t x = ((const ff_tiled_tile *)a)->id, y = ((const ff_tiled_tile *)b)->id;
    return (x > y) - (x < y);
}

/* Sort the tilesets by firstgid and each one's tiles by id, and refuse
 * repeats and tiles that contradict themselves. */
static ff_status sort_tilesets(ff_tiled *t)
{
    size_t k, j;

    if (t->nsets > 1)
        qsort(t->sets, t->nsets, sizeof *t->sets, cmp_set);
    for (k = 0; k < t->nsets; k++) {
        ff_tiled_tileset *s = &t->sets[k];
        if (k > 0 && s->firstgid == t->sets[k - 1].firstgid)
            return ff_error_set(t->err, FF_EINPUT, t->name, 0, 0,
                                "two tilesets start at gid %u", s->firstgid);
        if (s->ntiles > 1)
            qsort(s->tiles, s->ntiles, sizeof *s->tiles, cmp_tile);
        for (j = 0; j < s->ntiles; j++) {
            const ff_tiled_tile *tile = &s->tiles[j];
            if (j > 0 && tile->id == s->tiles[j - 1].id)
                return ff_error_set(t->err, FF_EINPUT, s->file, 0, 0,
                                    "tile %u of tileset '%.60s' is given twice", tile->id, s->name);
            if (tile->wall && (tile->has_cost || tile->goal || tile->spawn || tile->has_oneway))
                return ff_error_set(t->err, FF_EINPUT, s->file, 0, 0,
                                    "tile %u of tileset '%.60s' is a wall with a %s property",
                                    tile->id, s->name,
                                    tile->has_cost ? "cost" : tile->goal ? "goal"
                                    : tile->spawn ? "spawn" : "oneway");
        }
    }
    return FF_OK;
}

/* The tile that gid names, or NULL with *set the tileset it falls in
 * (NULL when none): a tile without an entry has no properties. */
static ff_tiled_tile *find_tile(ff_tiled *t, uint32_t gid, ff_tiled_tileset **set)
{
    size_t lo = 0, hi = t->nsets;
    ff_tiled_tileset *s;
    ff_tiled_tile key, *tile;

    while (lo < hi) {  /* the last tileset with firstgid <= gid */
        size_t mid = lo + (hi - lo) / 2;
        if (t->sets[mid].firstgid <= gid)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0) {
        *set = NULL;
        return NULL;
    }
    s = *set = &t->sets[lo - 1];
    key.id = gid - s->firstgid;
    if (s->ntiles == 0)
        return NULL;
    tile = bsearch(&key, s->tiles, s->ntiles, sizeof *s->tiles, cmp_tile);
    return tile;
}

/* Resolve every cell's tile, refusing a cell decided by a tile without
 * cost or wall, and mark the tiles used. */
static ff_status check_cells(ff_tiled *t)
{
    size_t n = (size_t)t->w * (size_t)t->h, i;
    uint32_t last_gid = 0;

    for (i = 0; i < n; i++) {
        uint32_t gid = t->top[i];
        ff_tiled_tileset *set;
        ff_tiled_tile *tile;
        long x = (long)(i % (size_t)t->w), y = (long)(i / (size_t)t->w);

        if (gid == 0 || gid == last_gid)
            continue;
        tile = find_tile(t, gid, &set);
        if (!set)
            return ff_error_set(t->err, FF_EINPUT, t->name, 0, 0,
                                "gid %u at cell %ld,%ld is in no tileset", gid, x, y);
        if (set->tilecount && gid - set->firstgid >= set->tilecount)
            return ff_error_set(t->err, FF_EINPUT, t->name, 0, 0,
                                "gid %u at cell %ld,%ld is past the %u tiles of tileset '%.60s'",
                                gid, x, y, set->tilecount, set->name);
        if (!tile || (!tile->has_cost && !tile->wall))
            return ff_error_set(t->err, FF_EINPUT, t->name, 0, 0,
                                "tile %u of tileset '%.60s' decides cell %ld,%ld but has no cost "
                                "or wall property", gid - set->firstgid, set->name, x, y);
        tile->used = 1;
        last_gid = gid;
    }
    return FF_OK;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Number the classes of the used tiles: ground, water and trees as in a
 * Moving AI map, any other name from 3 in byte order; a tile without a
 * class is ground. */
static ff_status number_classes(ff_tiled *t, int *any)
{
    char **names = NULL;
    size_t nnames = 0, cap = 0, k, j, m = 0;
    ff_status st = FF_OK;

    *any = 0;
    for (k = 0; k < t->nsets; k++)
        for (j = 0; j < t->sets[k].ntiles; j++) {
            ff_tiled_tile *tile = &t->sets[k].tiles[j];
            if (!tile->used || !tile->cls)
                continue;
            char **grown = ff_grow(names, &cap, nnames + 1, sizeof *grown, 8);
            if (!grown) {
                free(names);
                return no_memory(t);
            }
            names = grown;
            names[nnames++] = tile->cls;
            *any = 1;
        }
    if (nnames > 1)
        qsort(names, nnames, sizeof *names, cmp_name);
    for (k = 0; k < nnames; k++)  /* the other names, once each */
        if ((k == 0 || strcmp(names[k], names[k - 1]) != 0) &&
            strcmp(names[k], "ground") && strcmp(names[k], "water") && strcmp(names[k], "trees"))
            names[m++] = names[k];
    if (m + 3 > MAX_CLASSES)
        st = ff_error_set(t->err, FF_EINPUT, t->name, 0, 0,
                          "the tiles have %zu terrain classes; at most %d", m + 3, MAX_CLASSES);
    for (k = 0; st == FF_OK && k < t->nsets; k++)
        for (j = 0; j < t->sets[k].ntiles; j++) {
            ff_tiled_tile *tile = &t->sets[k].tiles[j];
            size_t c;
            tile->class_no = 0;
            if (!tile->used || !tile->cls)
                continue;
            for (c = 0; c < 3; c++)
                if (strcmp(tile->cls, moving_ai_class[c]) == 0)
                    break;
            if (c == 3) {
                char **hit = bsearch(&tile->cls, names, m, sizeof *names, cmp_name);
                c = 3 + (size_t)(hit - names);
            }
            tile->class_no = (uint8_t)c;
        }
    free(names);
    return st;
}

/* Summed-area table of the open cells: sat[(y)*(w+1)+x] counts the open
 * cells above and left of corner (x,y). */
static uint32_t *open_table(const ff_grid *g)
{
    size_t W = (size_t)g->w + 1, x, y;
    uint32_t *sat = calloc(W * ((size_t)g->h + 1), sizeof *sat);

    if (!sat)
        return NULL;
    for (y = 0; y < (size_t)g->h; y++)
        for (x = 0; x < (size_t)g->w; x++)
            sat[(y + 1) * W + x + 1] = sat[y * W + x + 1] + sat[(y + 1) * W + x] - sat[y * W + x] +
                                       (uint32_t)ff_grid_open(g, y * (size_t)g->w + x);
    return sat;
}

/* Mark in flags (bit 1 goal, bit 2 spawn) the open cells the goal and
 * spawn objects cover: a point its cell, a rectangle every cell it
 * overlaps by some area.  Rectangles go through a difference table, so
 * that many large ones cost no more than the map. */
static ff_status mark_objects(ff_tiled *t, const ff_grid *g, uint8_t *flags)
{
    size_t W = (size_t)g->w + 1, k, x, y;
    uint32_t *sat = NULL;
    int32_t *diff[2] = { NULL, NULL };
    ff_status st = FF_OK;

    for (k = 0; k < t->nmarks && st == FF_OK; k++) {
        const ff_tiled_mark *m = &t->marks[k];
        const char *what = m->goal ? "goal" : "spawn";
        double fx0 = floor(m->x / t->tile_w), fy0 = floor(m->y / t->tile_h);
        int64_t x0, y0, x1, y1;

        if (m->point) {
            if (fx0 < 0 || fy0 < 0 || fx0 >= g->w || fy0 >= g->h) {
                st = ff_error_set(t->err, FF_EINPUT, t->name, 0, 0,
                                  "%s object %ld at %g,%g pixels lies outside the map", what,
                                  m->id, m->x, m->y);
                break;
            }
            x0 = (int64_t)fx0;
            y0 = (int64_t)fy0;
            if (!ff_grid_open(g, (size_t)y0 * (size_t)g->w + (size_t)x0)) {
                st = ff_error_set(t->err, FF_EINPUT, t->name, 0, 0,
                                  "%s object %ld is on a wall (cell %lld,%lld)", what, m->id,
                                  (long long)x0, (long long)y0);
                break;
            }
            flags[(size_t)y0 * (size_t)g->w + (size_t)x0] |= (uint8_t)(m->goal ? 1 : 2);
            continue;
        }
        /* Cells [x0, x1) x [y0, y1), clipped to the map. */
        {
            double fx1 = ceil((m->x + m->w) / t->tile_w), fy1 = ceil((m->y + m->h) / t->tile_h);
            x0 = fx0 < 0 ? 0 : fx0 > g->w ? g->w : (int64_t)fx0;
            y0 = fy0 < 0 ? 0 : fy0 > g->h ? g->h : (int64_t)fy0;
            x1 = fx1 < 0 ? 0 : fx1 > g->w ? g->w : (int64_t)fx1;
            y1 = fy1 < 0 ? 0 : fy1 > g->h ? g->h : (int64_t)fy1;
        }
        if (x0 >= x1 || y0 >= y1) {
            st = ff_error_set(t->err, FF_EINPUT, t->name, 0, 0,
                              "%s object %ld lies outside the map", what, m->id);
            break;
        }
        if (!sat && !(sat = open_table(g))) {
            st = no_memory(t);
            break;
        }
        if (sat[(size_t)y1 * W + (size_t)x1] - sat[(size_t)y0 * W + (size_t)x1] -
            sat[(size_t)y1 * W + (size_t)x0] + sat[(size_t)y0 * W + (size_t)x0] == 0) {
            st = ff_error_set(t->err, FF_EINPUT, t->name, 0, 0,
                              "%s object %ld covers only walls", what, m->id);
            break;
        }
        if (!diff[m->goal] && !(diff[m->goal] = calloc(W * ((size_t)g->h + 1), sizeof **diff))) {
            st = no_memory(t);
            break;
        }
        diff[m->goal][(size_t)y0 * W + (size_t)x0]++;
        diff[m->goal][(size_t)y0 * W + (size_t)x1]--;
        diff[m->goal][(size_t)y1 * W + (size_t)x0]--;
        diff[m->goal][(size_t)y1 * W + (size_t)x1]++;
    }
    for (k = 0; k < 2 && st == FF_OK; k++) {
        int32_t *d = diff[k];
        if (!d)
            continue;
        for (y = 0; y <= (size_t)g->h; y++)
            for (x = 0; x <= (size_t)g->w; x++) {
                size_t i = y * W + x;
                if (x > 0)
                    d[i] += d[i - 1];
                if (y > 0)
                    d[i] += d[i - W];
                if (x > 0 && y > 0)
                    d[i] -= d[i - W - 1];
            }
        for (y = 0; y < (size_t)g->h; y++)
            for (x = 0; x < (size_t)g->w; x++) {
                size_t i = y * (size_t)g->w + x;
                if (d[y * W + x] > 0 && ff_grid_open(g, i))
                    flags[i] |= (uint8_t)(k ? 1 : 2);
            }
    }
    free(sat);
    free(diff[0]);
    free(diff[1]);
    return st;
}

/* The cells whose flags have bit, ascending, into *cells. */
static ff_status collect(ff_tiled *t, const uint8_t *flags, size_t n, uint8_t bit,
                         uint32_t **cells, size_t *count)
{
    size_t i, m = 0;

    for (i = 0; i < n; i++)
        m += (flags[i] & bit) != 0;
    *count = 0;
    if (m == 0)
        return FF_OK;
    if (!(*cells = malloc(m * sizeof **cells)))
        return no_memory(t);
    for (i = 0; i < n; i++)
        if (flags[i] & bit)
            (*cells)[(*count)++] = (uint32_t)i;
    return FF_OK;
}

ff_status ff_tiled_finish(ff_tiled *t, ff_grid *g)
{
    size_t n, i;
    uint8_t *flags = NULL;
    int any_class, any_oneway = 0;
    ff_status st;

    if (t->layers == 0)
        return t->opt->layer
                   ? ff_error_set(t->err, FF_EINPUT, t->name, 0, 0,
                                  "no tile layer is named '%.60s'", t->opt->layer)
                   : ff_error_set(t->err, FF_EINPUT, t->name, 0, 0,
                                  "no visible tile layer: every cell would be a wall");
    if ((st = sort_tilesets(t)) != FF_OK || (st = check_cells(t)) != FF_OK ||
        (st = number_classes(t, &any_class)) != FF_OK)
        return st;
    if (ff_grid_alloc(g, t->w, t->h, t->opt->max_cells, t->name, t->err) != FF_OK)
        return t->err ? t->err->status : FF_ENOMEM;
    n = (size_t)t->w * (size_t)t->h;
    g->cell_size = t->cell_size;
    g->oneway = malloc(n);
    g->terrain = malloc(n);
    flags = calloc(n, 1);
    if (!g->oneway || !g->terrain || !flags) {
        free(flags);
        return no_memory(t);
    }
    {
        uint32_t last_gid = 0;
        const ff_tiled_tile *tile = NULL;
        for (i = 0; i < n; i++) {
            uint32_t gid = t->top[i];
            g->oneway[i] = FF_ONEWAY_ALL;
            g->terrain[i] = 0;
            if (gid == 0)
                continue;  /* empty: a wall */
            if (gid != last_gid) {
                ff_tiled_tileset *set;
                tile = find_tile(t, gid, &set);
                last_gid = gid;
            }
            if (tile->wall)
                continue;
            g->cost[i] = tile->cost;
            g->terrain[i] = tile->class_no;
            if (tile->has_oneway) {
                g->oneway[i] = tile->oneway;
                any_oneway |= tile->oneway != FF_ONEWAY_ALL;
            }
            flags[i] = (uint8_t)((tile->goal ? 1 : 0) | (tile->spawn ? 2 : 0));
        }
    }
    if ((st = mark_objects(t, g, flags)) == FF_OK &&
        (st = collect(t, flags, n, 1, &g->goals, &g->ngoals)) == FF_OK)
        st = collect(t, flags, n, 2, &g->spawns, &g->nspawns);
    free(flags);
    if (st != FF_OK)
        return st;
    if (!any_oneway) {
        free(g->oneway);
        g->oneway = NULL;
    }
    if (!any_class) {
        free(g->terrain);
        g->terrain = NULL;
    }
    ff_grid_drop_one_class(g);
    return FF_OK;
}
