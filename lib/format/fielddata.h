/* fielddata.h - the data model of the ff stream (man 5 ff): the value
 * types of its channels, a channel, and a field (a map and the channels
 * made from it) in memory, with the map's id.  The stream's reader and
 * writer (stream.h) and its ids (streamid.h) both build on it.
 *
 * A field owns its grid and every channel; ff_field_free() releases them.
 */
#ifndef FF_FIELDDATA_H
#define FF_FIELDDATA_H

#include <stddef.h>
#include <stdint.h>

#include "grid.h"
#include "gridid.h"

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

/* An empty field: no channel, an empty grid (ff_grid_init). */
void ff_field_init(ff_field *f);

/* Free the grid and every channel of f, and leave it empty. */
void ff_field_free(ff_field *f);

/* The stream's name of type t ("u8", ..., "f64") and its size in bytes. */
const char *ff_type_name(ff_type t);
size_t ff_type_size(ff_type t);

/* The vector channel of an any-angle field (an extra channel 'vector' of
 * type f32x2, as ffdir writes it), or NULL. */
const float *ff_field_vectors(const ff_field *f);

/* Give f the extra channel name (at most the channel name's size less
 * one) of type t with lanes values a cell (1, 2 or 8), holding data (w x h
 * cells, malloc'ed; f owns it from here, and frees it on failure): it
 * replaces an extra channel of that name, or is added after the others.
 * It has no id (has_id 0) until the caller gives it one.  The channel,
 * or NULL when memory runs out (f unchanged). */
ff_channel *ff_field_put_extra(ff_field *f, const char *name, ff_type t, int lanes, void *data);

/* The values a cell of ch: its lanes, 1 for any value but 2 and 8. */
int ff_channel_lanes(const ff_channel *ch);
/* The type suffix of a channel of lanes values a cell: "", "x2", "x8". */
const char *ff_lanes_suffix(int lanes);

/* The bits of value k of an array data of type t, in the low
 * ff_type_size(t) bytes (an i32 as its two's complement, a real as its
 * IEEE 754 encoding): written low byte first, the stream's order. */
uint64_t ff_value_bits(ff_type t, const void *data, size_t k);

#ifdef __cplusplus
}
#endif

#endif
