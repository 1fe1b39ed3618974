/* tiled.h - Tiled maps (man 5 fftiled): what the JSON and the XML reader
 * share.  A reader fills an ff_tiled record with the parts of the map as it
 * meets them (the size, the tilesets and their tiles' custom properties,
 * the gids of the tile layers, the goal and spawn objects), and
 * ff_tiled_finish() applies the convention and makes the grid.
 *
 * Every function that can fail fills t->err and returns its status; the
 * reader then stops and calls ff_tiled_free().
 */
#ifndef FF_TILED_H
#define FF_TILED_H

#include <stddef.h>
#include <stdint.h>

#include "grid.h"
#include "mapopts.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The high bits of a gid: horizontal, vertical and diagonal flips and
 * (hexagonal maps) the 120-degree rotation.  Masked before a tile is
 * looked up. */
#define FF_TILED_FLAG_BITS 0xF0000000u

/* Largest tileset or map file read, in bytes. */
#define FF_TILED_MAX_TILESET_BYTES ((size_t)64 << 20)

/* A custom property as the reader found it. */
typedef enum {
    FF_TILED_STRING,  /* text */
    FF_TILED_NUMBER,  /* int or float */
    FF_TILED_BOOL,
    FF_TILED_OTHER    /* color, file, object, class: never ours */
} ff_tiled_kind;

typedef struct {
    const char *name;
    ff_tiled_kind kind;
    const char *text;  /* FF_TILED_STRING */
    double number;     /* FF_TILED_NUMBER */
    int boolean;       /* FF_TILED_BOOL */
} ff_tiled_prop;

/* What the convention reads of one tile of a tileset. */
typedef struct {
    uint32_t id;          /* local id within its tileset */
    int has_cost, wall;   /* a cost property; wall true */
    float cost;           /* >= 0, finite */
    int goal, spawn;      /* goal true, spawn true */
    int has_oneway;
    uint8_t oneway;       /* mask of the directions a cell may be left in */
    char *cls;            /* the class property, or NULL; owned */
    int used;             /* decides some cell (ff_tiled_finish) */
    uint8_t class_no;     /* terrain class of cls (ff_tiled_finish) */
} ff_tiled_tile;

typedef struct {
    uint32_t firstgid;    /* >= 1 */
    uint32_t tilecount;   /* 0 when not given */
    char *name;           /* owned; "" until named */
    char *file;           /* file it was read from, for messages; owned */
    ff_tiled_tile *tiles; /* the tiles with properties, by id once sorted;
                           * owned unless borrowed */
    size_t ntiles, cap;
    int external;         /* read from a file (ff_tiled_external): dev, ino */
    uint64_t dev, ino;
    int borrowed;         /* tiles are an earlier set's, read from the same
                           * file: one file named many times is read and
                           * stored once */
} ff_tiled_tileset;

/* An object of class (or type) goal or spawn, in pixels. */
typedef struct {
    int goal;             /* 1 goal, 0 spawn */
    int point;            /* a point object (w and h unused) */
    double x, y, w, h;
    long id;              /* the object's id, for messages */
} ff_tiled_mark;

typedef struct ff_tiled {
    const char *name;           /* the map in messages */
    const ff_map_options *opt;
    ff_error *err;              /* the caller's, or own_err; never NULL */
    ff_error own_err;
    int32_t w, h;               /* cells; 0 until the header is read */
    double tile_w, tile_h;      /* pixels per cell, > 0 */
    double cell_size;           /* world units per cell (map property cell) */
    ff_tiled_tileset *sets;
    size_t nsets, sets_cap;
    uint32_t *top;              /* w*h: gid deciding each cell, flags masked,
                                 * 0 = empty; NULL until a layer counts */
    size_t layers;              /* tile layers that counted */
    char layer_name[64];        /* the layer being read, for messages */
    ff_tiled_mark *marks;
    size_t nmarks, marks_cap;
    /* Reads the bytes of an external tileset file into set: the JSON or
     * the XML reader, by the content (set by tiledmap.c). */
    ff_status (*read_tileset)(struct ff_tiled *t, ff_tiled_tileset *set,
                              const unsigned char *data, size_t size, const char *file);
} ff_tiled;

void ff_tiled_init(ff_tiled *t, const char *name, const ff_map_options *opt, ff_error *err);
void ff_tiled_free(ff_tiled *t);

/* The map's header: orthogonal, finite, w x h cells within the cell
 * limit, tiles of tile_w x tile_h pixels. */
ff_status ff_tiled_header(ff_tiled *t, const char *orientation, int infinite, int64_t w,
                          int64_t h, double tile_w, double tile_h, long line);

/* A custom property of the map itself (cell: world units per cell). */
ff_status ff_tiled_map_property(ff_tiled *t, const ff_tiled_prop *p, long line);

/* A tileset of the map starting at firstgid.  Returns NULL on failure;
 * the pointer is good until the next ff_tiled_tileset_add. */
ff_tiled_tileset *ff_tiled_tileset_add(ff_tiled *t, int64_t firstgid, long line);

/* Name the tileset, and give its tilecount (< 0: not given). */
ff_status ff_tiled_tileset_info(ff_tiled *t, ff_tiled_tileset *set, const char *name,
                                int64_t tilecount, const char *file, long line);

/* Tile id of set, to which properties are then given.  NULL on failure;
 * the pointer is good until the next ff_tiled_tile_add on set. */
ff_tiled_tile *ff_tiled_tile_add(ff_tiled *t, ff_tiled_tileset *set, int64_t id,
                                 const char *file, long line);

/* A custom property of a tile: cost, wall, goal, spawn, oneway and class
 * are read and checked, any other name is ignored. */
ff_status ff_tiled_tile_property(ff_tiled *t, const ff_tiled_tileset *set, ff_tiled_tile *tile,
                                 const ff_tiled_prop *p, const char *file, long line);

/* Read the external tileset source, named relative to the folder of the
 * map's file, into set (through t->read_tileset). */
ff_status ff_tiled_external(ff_tiled *t, ff_tiled_tileset *set, const char *source, long line);

/* A tile layer: *counts is set to 1 when its gids decide cells (it is
 * visible, or it is the --layer one), else 0.  lw, lh (< 0: not given)
 * must be the map's size. */
ff_status ff_tiled_layer(ff_tiled *t, const char *name, int visible, int64_t lw, int64_t lh,
                         long line, int *counts);

/* Before the gids of a counting layer: the layer's data can hold at most
 * max_cells cells (from its size in bytes), so a header that claims more
 * is refused before anything is allocated. */
ff_status ff_tiled_layer_ready(ff_tiled *t, uint64_t max_cells, long line);

/* Cell i (< w*h) of a counting layer holds gid: the topmost non-empty tile
 * decides. */
static inline void ff_tiled_put(ff_tiled *t, size_t i, uint32_t gid)
{
    gid &= ~FF_TILED_FLAG_BITS;
    if (gid)
        t->top[i] = gid;
}

/* An object of an object layer.  cls is its class or type; shape is
 * "rectangle", "point", or what else it is (ellipse, polygon, polyline,
 * text, tile); only goal and spawn objects are kept, and they must be
 * points or rectangles, not rotated. */
ff_status ff_tiled_object(ff_tiled *t, const char *cls, const char *shape, long id, double x,
                          double y, double w, double h, double rotation, const char *file,
                          long line);

/* Apply the convention (man 5 fftiled) and make the grid g (freshly
 * initialised). */
ff_status ff_tiled_finish(ff_tiled *t, ff_grid *g);

#ifdef __cplusplus
}
#endif

#endif
