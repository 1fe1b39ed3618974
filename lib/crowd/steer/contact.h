/* contact.h - the contacts of a tick and the overlap resolution (man 1
 * ffsim): the pairs of agents that may touch, found afresh from the hash
 * or from the candidates the steps gathered, the resolution passes, and
 * the overlap measure.  For lib/crowd's own use: the tick (crowd.c) and
 * the steps (steer.c, which gather the candidates) call it; the contact
 * arrays of struct ff_crowd are changed only here.
 */
#ifndef FF_CONTACT_H
#define FF_CONTACT_H

#include "crowdint.h"
#include "grow.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Gather the pair of hash entries mine and other as a contact candidate
 * (contact.c); when out of memory, mark the tick to find its contacts
 * afresh. */
static inline void ff_contacts_collect(ff_crowd *c, const ff_shash_entry *mine, const ff_shash_entry *other)
{
    if (c->ncand == c->cap_cand) {
        /* (a pair of entries a candidate) */
        uint32_t *p = c->cand_failed ? NULL : ff_grow(c->cand, &c->cap_cand, c->ncand + 1, 2 * sizeof *p, 1024);
        if (!p) {
            c->cand_failed = 1;  /* the tick falls back to a fresh search */
            return;
        }
        c->cand = p;
    }
    c->cand[2 * c->ncand] = (uint32_t)(mine - c->hash.entry);
    c->cand[2 * c->ncand + 1] = (uint32_t)(other - c->hash.entry);
    c->ncand++;
}

/* A steering tick's start: no candidates yet, and (collect) room for one
 * an agent of the hash, at once rather than by doublings in the middle
 * of the walk. */
void ff_contacts_begin(ff_crowd *c, int collect);
/* The candidates of hash entry k within reach, for an agent whose steering
 * gathered none. */
void ff_contacts_scan(ff_crowd *c, size_t k, double reach);
/* This tick's contacts from the candidates (points[k]: entry k's agent
 * after its move), in ff_contacts_find's order; FF_ENOMEM. */
ff_status ff_contacts_from_candidates(ff_crowd *c, ff_error *err);
/* This tick's contacts by a neighbour search of the hash (just built);
 * FF_ENOMEM. */
ff_status ff_contacts_find(ff_crowd *c, ff_error *err);
/* One Gauss-Seidel pass of overlap resolution over the contacts. */
void ff_contacts_resolve_pass(ff_crowd *c);
/* The largest pair overlap over the sum of radii (the hash current). */
double ff_contacts_largest_overlap(const ff_crowd *c);
/* The same, measured only round the agents of this tick's contacts;
 * clears their marks. */
double ff_contacts_largest_overlap_involved(ff_crowd *c);

#ifdef __cplusplus
}
#endif

#endif
