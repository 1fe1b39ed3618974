/* stream.h - the ff stream: a map and the fields made from it, as one
 * bundle (man 5 ff).
 *
 * A field owns its grid and every channel; ff_field_free() releases them.
 * A stream may hold several fields one after another (a multi-field
 * stream); ff_field_read() reads the next one.
 */
#ifndef FF_STREAM_H
#define FF_STREAM_H

#include <stdio.h>

#include "grid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { FF_T_U8 = 0, FF_T_U16, FF_T_U32, FF_T_I32, FF_T_F32, FF_T_F64 } ff_type;

/* A channel this library does not interpret, kept to be passed on. */
typedef struct {
    char name[32];  /* [a-z0-9_-], 1..31 characters */
    ff_type type;
    int lanes;      /* values per cell: 1, 2 for a TYPEx2 channel, 8 for
                       a TYPEx8 channel */
    void *data;     /* w*h*lanes values of the type, cell-major, native
                       byte order; owned */
    int has_id;     /* 1: covered by an 'id NAME' line (checked on read,
                       written, kept by ff_field_update_derived_ids) */
    uint64_t id;    /* with has_id: ff_channel_id() of the channel */
} ff_channel;

typedef struct ff_field {
    ff_grid grid;             /* the map: size, geometry, rules, cost, ... */
    double *distance;         /* NULL or w*h: cost to a goal, +inf = none */
    uint8_t *direction;       /* NULL or w*h direction codes (grid.h) */
    int turn;                 /* 1: a turn-cost field (the 'turn-cost' key) */
    double turn_cost;         /* with turn: C >= 0, per 45-degree turn */
    double *heading_distance; /* with turn, NULL or 8*w*h: the distance of
                                 each (cell, heading) state, heading h of
                                 cell i at 8*i+h (turn.h) */
    uint8_t *heading_direction; /* with turn, NULL or 8*w*h codes, the same
                                   order */
    int any_angle;            /* 1: distance is the any-angle distance
                                 (anyangle.h; the 'any-angle' key) */
    uint64_t map_id;          /* hash of the graph; see ff_field_update_ids */
    int map_id_read;          /* 1: read from a stream that had 'id map'
                                 (checked); 0: computed only */
    uint64_t distance_id;     /* hash of map id, goals and distance (and, on
                                 a turn-cost field, turn cost and heading
                                 distance) */
    uint64_t direction_id;    /* ff_channel_id() of the direction channel */
    uint64_t heading_direction_id; /* ff_channel_id() of heading_direction */
    ff_channel *extra;        /* unknown channels, in the order read */
    size_t nextra;
    char name[64];            /* the field's name in a multi-field stream,
                                 or "" */
} ff_field;

/* State of a reader over one input: a file or stdin. */
typedef struct {
    FILE *f;
    const char *name;     /* as given by the user, for messages */
    long long byte;       /* bytes consumed so far */
    long line;            /* lines consumed so far (text parts) */
    uint64_t max_cells;   /* 0 = FF_MAX_CELLS_DEFAULT */
} ff_reader;

void ff_reader_init(ff_reader *r, FILE *f, const char *name);

void ff_field_init(ff_field *f);
void ff_field_free(ff_field *f);

/* Read the next field.  Returns FF_OK, FF_ENOTFOUND at a clean end of input
 * (no byte of a new field), or an error: a malformed header, a truncated
 * payload, a bad value, or ids that do not match their channels (a channel
 * from another generation). */
ff_status ff_field_read(ff_reader *r, ff_field *f, ff_error *err);

/* Compute map_id, distance_id when there is a distance, and the ids of
 * the derived channels (ff_field_update_derived_ids). */
void ff_field_update_ids(ff_field *f);

/* Compute distance_id and the derived channels' ids from the map_id
 * already set (for many fields of one map: the map is hashed once). */
void ff_field_update_distance_id(ff_field *f);

/* Compute direction_id (with a direction) and the id of every extra
 * channel with has_id, from the map_id and distance_id already set.  A
 * program that makes or changes a derived channel calls this (after
 * setting has_id on an extra channel it made) before writing. */
void ff_field_update_derived_ids(ff_field *f);

/* The id of a derived channel NAME of type T with w*h values DATA in f:
 * the hash of f's distance_id (map_id without a distance), NAME, T and
 * the values (man 5 ff, "Ids").  Every channel but cost, oneway, class
 * and distance is derived. */
uint64_t ff_channel_id(const ff_field *f, const char *name, ff_type t, const void *data);

/* The same for a channel of lanes values a cell (1, 2 for TYPEx2, 8 for
 * TYPEx8): its type code counts 8 more for x8, 16 more for x2, and
 * w*h*lanes values are hashed. */
uint64_t ff_channel_id_lanes(const ff_field *f, const char *name, ff_type t, int lanes,
                             const void *data);

/* Hash of the graph alone (what map_id holds). */
uint64_t ff_grid_id(const ff_grid *g);

/* Write f (ids as set by ff_field_update_ids) in the
 * binary or the text encoding.  Returns FF_EIO on a write error. */
ff_status ff_field_write(FILE *out, const ff_field *f, int text, ff_error *err);

const char *ff_type_name(ff_type t);
/* The vector channel of an any-angle field (an extra channel 'vector' of
 * type f32x2, as ffdir writes it), or NULL. */
const float *ff_field_vectors(const ff_field *f);

/* The values a cell of ch: its lanes, 1 for any value but 2 and 8. */
int ff_channel_lanes(const ff_channel *ch);
/* The type suffix of a channel of lanes values a cell: "", "x2", "x8". */
const char *ff_lanes_suffix(int lanes);
size_t ff_type_size(ff_type t);

/* The bits of value k of an array data of type t, in the low
 * ff_type_size(t) bytes (an i32 as its two's complement, a real as its
 * IEEE 754 encoding): written low byte first, the stream's order. */
uint64_t ff_value_bits(ff_type t, const void *data, size_t k);

#ifdef __cplusplus
}
#endif

#endif
