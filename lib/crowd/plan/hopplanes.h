/* hopplanes.h - whole planes of hop counts to goals, made breadth first
 * in a pool of bounded bytes: the heuristic of a plan's searches on small
 * maps.
 *
 * A search of the plan (mapflns.h) asks the steps to its agent's goal at
 * cells anywhere in the map, and the searches of a plan ask most cells of
 * most agents' goals in the end.  An own goal's field grows lazily by an
 * A* aimed at the agent's start (goalfield.h), which pops a cell about
 * three times over when it is taken that far; one breadth-first search
 * over the whole map pops it once, with no heuristic and no order of f
 * to keep.  The counts are the same: the fewest legal steps from a cell
 * to the goal.
 */
#ifndef FF_HOPPLANES_H
#define FF_HOPPLANES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FF_HOPPLANE_UNREACHED UINT16_MAX

/* Planes of w x h cells (fewer than 65,535: a count fits 16 bits), one
 * per key (keys 0 .. nkeys - 1: the crowd's goal fields), at most cap of
 * them (max_bytes' worth), made when first asked for and kept to the
 * end.  The pool owns its arrays; ff_hopplanes_free releases them. */
typedef struct {
    uint32_t w, h;
    size_t cells;
    uint16_t *plane;           /* cap planes of cells counts */
    uint32_t *plane_of;        /* per key: its plane, or UINT32_MAX */
    size_t nkeys, cap, used;
    uint32_t *queue;           /* the breadth-first search's cells */
    uint8_t *into;             /* per cell: bit d, the cell one step back
                                  in direction d steps into it ... */
    const uint8_t *into_of;    /* ... by this step_mask */
} ff_hopplanes;

/* A pool for nkeys keys on a w x h map, of max_bytes at most: -1 when
 * the map is too large for 16-bit counts, max_bytes holds no plane, or
 * out of memory (the pool is then empty and ff_hopplanes_get says no to
 * every key; ff_hopplanes_free may be called all the same). */
int ff_hopplanes_init(ff_hopplanes *c, uint32_t w, uint32_t h, size_t nkeys, size_t max_bytes);

/* The plane of key: its cells' fewest steps to goal, FF_HOPPLANE_UNREACHED
 * where no way leads there, by the steps of step_mask (a cell's bit d,
 * d < 4: it may step to its neighbour in direction d, N E S W; a step
 * leaves no cell that steps off the map).  Made on the first call for
 * key, from that call's step_mask and goal; the later calls read it
 * (step_mask is read again when it is not the last one given: one that
 * changes in place needs a pool afresh).
 * NULL when the pool is full or empty (the caller asks elsewhere). */
const uint16_t *ff_hopplanes_get(ff_hopplanes *c, uint32_t key, const uint8_t *step_mask, uint32_t goal);

void ff_hopplanes_free(ff_hopplanes *c);

#ifdef __cplusplus
}
#endif

#endif
