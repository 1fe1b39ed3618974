/* gridmodel.h - an independent model of the movement rules (man 1 ffbuild,
 * "The graph") for the brute-force oracles of the Criterion suites, and
 * random small maps in both forms. */
#ifndef FF_GRIDMODEL_H
#define FF_GRIDMODEL_H

#include "testutil.h"

static const int DX[8] = { 0, 1, 0, -1, 1, 1, -1, -1 };
static const int DY[8] = { -1, 0, 1, 0, -1, 1, 1, -1 };

typedef struct {
    int w, h, moves, corners; /* corners: 0 strict, 1 cut, 2 free */
    double cell;
    double cost[100];         /* < 0 = wall */
    int oneway[100];          /* bit d = may leave toward d */
    int cls[100];
} model;

static inline int m_open(const model *m, int x, int y, int cls)
{
    if (x < 0 || y < 0 || x >= m->w || y >= m->h)
        return 0;
    return m->cost[y * m->w + x] >= 0 && m->cls[y * m->w + x] == cls;
}

/* Cost of the forward step from (x,y) in direction d, or -1 if illegal. */
static inline double m_step(const model *m, int x, int y, int d)
{
    int nx = x + DX[d], ny = y + DY[d], c;
    if (d >= m->moves || !m_open(m, x, y, m->cls[y * m->w + x]))
        return -1;
    c = m->cls[y * m->w + x];
    if (!m_open(m, nx, ny, c) || !(m->oneway[y * m->w + x] & (1 << d)))
        return -1;
    if (d >= 4) {
        int a = m_open(m, nx, y, c), b = m_open(m, x, ny, c);
        if (m->corners == 0 && !(a && b))
            return -1;
        if (m->corners == 1 && !(a || b))
            return -1;
    }
    return (d < 4 ? 1.0 : sqrt(2.0)) * m->cell *
           (m->cost[y * m->w + x] + m->cost[ny * m->w + nx]) / 2;
}

/* A random small map in both forms: the model and an ff_grid. */
static inline void m_random_map(unsigned long long *rng, model *m, ff_grid *g, int *is_goal)
{
    static const double costs[] = { 0, 0.5, 1, 1, 1, 2, 3.75, 4 };
    int n, k, ngoals, with_classes, with_oneway;

    m->w = 3 + (int)(tu_next(rng) % 7);
    m->h = 3 + (int)(tu_next(rng) % 7);
    m->moves = tu_next(rng) % 2 ? 8 : 4;
    m->corners = (int)(tu_next(rng) % 3);
    m->cell = tu_next(rng) % 3 == 0 ? 0.5 : 1.0;
    n = m->w * m->h;
    with_classes = tu_next(rng) % 4 == 0;
    with_oneway = tu_next(rng) % 2 == 0;
    ff_grid_init(g);
    cr_assert_eq(ff_grid_alloc(g, m->w, m->h, 0, NULL, NULL), FF_OK);
    g->moves = m->moves;
    g->corners = (ff_corners)m->corners;
    g->cell_size = m->cell;
    g->oneway = malloc((size_t)n);
    g->terrain = malloc((size_t)n);
    for (k = 0; k < n; k++) {
        int wall = tu_next(rng) % 4 == 0;
        m->cost[k] = wall ? -1 : costs[tu_next(rng) % 8];
        g->cost[k] = wall ? INFINITY : (float)m->cost[k];
        m->oneway[k] = with_oneway && tu_next(rng) % 5 == 0 ? (int)(tu_next(rng) % 256) : 255;
        g->oneway[k] = (uint8_t)m->oneway[k];
        m->cls[k] = with_classes ? (int)(tu_next(rng) % 2) : 0;
        g->terrain[k] = (uint8_t)m->cls[k];
        is_goal[k] = 0;
    }
    ngoals = 1 + (int)(tu_next(rng) % 3);
    for (k = 0; k < ngoals; k++) {
        int c = (int)(tu_next(rng) % (unsigned)n);
        if (m->cost[c] < 0) {
            m->cost[c] = 1;
            g->cost[c] = 1;
        }
        is_goal[c] = 1;
        cr_assert_eq(ff_grid_add_goal(g, c % m->w, c / m->w, NULL, 0, 0, NULL), FF_OK);
    }
}

#endif
