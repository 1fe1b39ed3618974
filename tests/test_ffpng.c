/* test_ffpng.c - ffpng end to end: fields made by bin/ffbuild and bin/ffdir
 * from the maps in testdata/png/, drawn by bin/ffpng, decoded again with
 * libpng, and pixels checked at cells whose colour is known by hand (the
 * colours are the ones man 1 ffpng lists). */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>
#include <png.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stream.h"

static char dir[64];

static void make_dir(void)
{
    strcpy(dir, "/tmp/test_ffpng.XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

/* Run a shell command from the top of the tree; returns its exit status. */
static int sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    int st;

    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

typedef struct {
    png_uint_32 w, h;
    unsigned char *rgb;
} picture;

static picture decode(const char *name)
{
    char path[256];
    png_image img;
    picture p;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    cr_assert(png_image_begin_read_from_file(&img, path), "%s: %s", path, img.message);
    cr_assert_eq(img.format & PNG_FORMAT_FLAG_COLOR, PNG_FORMAT_FLAG_COLOR, "an RGB PNG");
    img.format = PNG_FORMAT_RGB;
    p.w = img.width;
    p.h = img.height;
    p.rgb = malloc(PNG_IMAGE_SIZE(img));
    cr_assert_not_null(p.rgb);
    cr_assert(png_image_finish_read(&img, NULL, p.rgb, 0, NULL), "%s", img.message);
    return p;
}

static unsigned pixel(const picture *p, long x, long y)
{
    const unsigned char *q;
    cr_assert(x >= 0 && y >= 0 && (png_uint_32)x < p->w && (png_uint_32)y < p->h,
              "pixel %ld,%ld outside %ux%u", x, y, (unsigned)p->w, (unsigned)p->h);
    q = p->rgb + 3 * ((size_t)y * p->w + (size_t)x);
    return (unsigned)q[0] << 16 | (unsigned)q[1] << 8 | q[2];
}

/* Relative luminance of a packed sRGB colour. */
static double luminance(unsigned c)
{
    double v[3];
    int k;
    for (k = 0; k < 3; k++) {
        double s = ((c >> (16 - 8 * k)) & 255) / 255.0;
        v[k] = s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
    }
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}

#define WALL 0x202020u
#define GOAL 0xff00ffu
#define UNREACHABLE 0xb4b4b4u
#define RAMP_FIRST 0x360463u
#define RAMP_LAST 0xfcee2au
#define ARROW 0x000000u
#define PATH 0xff2828u

TestSuite(ffpng, .init = make_dir, .fini = remove_dir);

/* The room of testdata/png/room.ffmap at scale 8: goal 1,1, a pocket
 * 8,1..8,2 that nothing reaches, the farthest cell 8,4 (4 + 3 sqrt 2). */
Test(ffpng, distance_layer_colours)
{
    picture p;

    cr_assert_eq(sh("./bin/ffbuild testdata/png/room.ffmap > %s/room.ff", dir), 0);
    cr_assert_eq(sh("./bin/ffpng -s 8 --no-legend %s/room.ff -o %s/room.png", dir, dir), 0);
    p = decode("room.png");
    cr_assert_eq(p.w, 80);
    cr_assert_eq(p.h, 48);
    cr_expect_eq(pixel(&p, 0, 0), WALL, "wall cell 0,0: %06x", pixel(&p, 0, 0));
    cr_expect_eq(pixel(&p, 7 * 8 + 4, 2 * 8 + 4), WALL, "wall cell 7,2");
    /* The goal is a ring, 2.24 to 3.36 pixels from the cell's center. */
    cr_expect_eq(pixel(&p, 1 * 8 + 6, 1 * 8 + 4), GOAL, "goal cell 1,1 ring: %06x",
                 pixel(&p, 14, 12));
    /* The goal's corner and center show its distance, 0: the ramp's first
     * colour. */
    cr_expect_eq(pixel(&p, 1 * 8, 1 * 8), RAMP_FIRST, "goal corner: %06x", pixel(&p, 8, 8));
    cr_expect_eq(pixel(&p, 1 * 8 + 4, 1 * 8 + 4), RAMP_FIRST, "goal center");
    cr_expect_eq(pixel(&p, 8 * 8 + 4, 1 * 8 + 4), UNREACHABLE, "pocket 8,1: %06x",
                 pixel(&p, 68, 12));
    cr_expect_eq(pixel(&p, 8 * 8 + 1, 2 * 8 + 6), UNREACHABLE, "pocket 8,2");
    cr_expect_eq(pixel(&p, 8 * 8 + 4, 4 * 8 + 4), RAMP_LAST, "farthest 8,4: %06x",
                 pixel(&p, 68, 36));
    /* Along row 4, distances 3, 4, 5, ... 3 sqrt 2 + 4: brighter each cell. */
    for (int x = 1; x < 8; x++)
        cr_expect_lt(luminance(pixel(&p, x * 8 + 4, 36)), luminance(pixel(&p, (x + 1) * 8 + 4, 36)),
                     "cell %d,4 should be darker than %d,4", x, x + 1);
    free(p.rgb);
}

/* The star map: a goal at 3,3 and its eight neighbours, each stepping
 * straight onto it.  At scale 16 each neighbour's arrow lies along its
 * direction, with the head (the wide part) on the goal's side. */
Test(ffpng, arrows_point_at_the_goal)
{
    static const struct { int x, y; double ux, uy; } cell[8] = {
        { 3, 2, 0, 1 },  { 3, 4, 0, -1 },  { 2, 3, 1, 0 },   { 4, 3, -1, 0 },
        { 2, 2, 1, 1 },  { 4, 2, -1, 1 },  { 2, 4, 1, -1 },  { 4, 4, -1, -1 },
    };
    picture p;
    int k;

    cr_assert_eq(sh("./bin/ffbuild testdata/png/star.ffmap | ./bin/ffdir > %s/star.ff", dir), 0);
    cr_assert_eq(sh("./bin/ffpng -s 16 --no-legend %s/star.ff -o %s/star.png", dir, dir), 0);
    p = decode("star.png");
    cr_assert_eq(p.w, 7 * 16);
    for (k = 0; k < 8; k++) {
        double len = sqrt(cell[k].ux * cell[k].ux + cell[k].uy * cell[k].uy);
        double ux = cell[k].ux / len, uy = cell[k].uy / len;
        int head = 0, tail = 0, off_axis = 0, total = 0;
        for (int py = 0; py < 16; py++)
            for (int px = 0; px < 16; px++) {
                double rx = px + 0.5 - 8, ry = py + 0.5 - 8;
                double along = rx * ux + ry * uy, across = fabs(-rx * uy + ry * ux);
                if (pixel(&p, cell[k].x * 16 + px, cell[k].y * 16 + py) != ARROW)
                    continue;
                total++;
                if (across > 4.5)
                    off_axis++;
                if (across > 2 && along > 0)
                    head++;
                if (across > 2 && along < 0)
                    tail++;
            }
        cr_expect_gt(total, 20, "cell %d,%d: an arrow", cell[k].x, cell[k].y);
        cr_expect_eq(off_axis, 0, "cell %d,%d: arrow pixels off its axis", cell[k].x, cell[k].y);
        cr_expect_gt(head, 4, "cell %d,%d: no head toward the goal", cell[k].x, cell[k].y);
        cr_expect_eq(tail, 0, "cell %d,%d: wide pixels behind the center", cell[k].x, cell[k].y);
    }
    /* The goal itself carries no arrow but the goal mark. */
    cr_expect_eq(pixel(&p, 3 * 16 + 8 + 5, 3 * 16 + 8), GOAL);
    cr_expect_eq(pixel(&p, 8, 8), WALL);
    free(p.rgb);
}

Test(ffpng, path_is_drawn)
{
    FILE *f;
    char path[128];
    picture p;

    snprintf(path, sizeof path, "%s/path.txt", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("# along row 4 of the room\n1.5 4.5\n6.5 4.5\n", f);
    fclose(f);
    cr_assert_eq(sh("./bin/ffbuild testdata/png/room.ffmap > %s/room.ff", dir), 0);
    cr_assert_eq(sh("./bin/ffpng -s 8 --path %s %s/room.ff -o %s/path.png", path, dir, dir), 0);
    p = decode("path.png");
    /* Half way, on the line: world 4,4.5 is pixel 32,36. */
    cr_expect_eq(pixel(&p, 32, 36), PATH, "on the path: %06x", pixel(&p, 32, 36));
    cr_expect_eq(pixel(&p, 32, 35), PATH);
    /* Two pixels off the line, the field again. */
    cr_expect_neq(pixel(&p, 32, 38), PATH);
    cr_expect_neq(pixel(&p, 32, 33), PATH);
    /* Past the path's end, no line. */
    cr_expect_neq(pixel(&p, 60, 36), PATH);
    /* The ends are dotted in a darker shade, not the line's colour. */
    cr_expect_neq(pixel(&p, 12, 36), PATH);
    cr_expect_neq(pixel(&p, 12, 36), pixel(&p, 12, 33));
    free(p.rgb);
}

Test(ffpng, same_input_same_bytes)
{
    cr_assert_eq(sh("./bin/ffbuild testdata/png/room.ffmap | ./bin/ffdir > %s/a.ff", dir), 0);
    cr_assert_eq(sh("./bin/ffbuild --text testdata/png/room.ffmap | ./bin/ffdir --text > %s/b.ff",
                    dir), 0);
    cr_assert_eq(sh("./bin/ffpng --legend %s/a.ff > %s/1.png", dir, dir), 0);
    cr_assert_eq(sh("./bin/ffpng --legend %s/a.ff > %s/2.png", dir, dir), 0);
    cr_assert_eq(sh("./bin/ffpng --legend < %s/b.ff > %s/3.png", dir, dir), 0);
    cr_expect_eq(sh("cmp -s %s/1.png %s/2.png", dir, dir), 0, "two runs differ");
    cr_expect_eq(sh("cmp -s %s/1.png %s/3.png", dir, dir), 0, "text and binary streams differ");
}

/* The key by default: the title, then the bar from x 4 to w - 4 on rows
 * 15..22 below the map (dots of 1 pixel under 600 pixels of width), its
 * ends the colours of the nearest and farthest cells, ticks below it. */
Test(ffpng, legend_strip)
{
    picture p;
    int black = 0;

    cr_assert_eq(sh("./bin/ffbuild testdata/png/room.ffmap > %s/room.ff", dir), 0);
    cr_assert_eq(sh("./bin/ffpng -s 8 %s/room.ff -o %s/legend.png", dir, dir), 0);
    p = decode("legend.png");
    cr_assert_gt(p.w, 80, "the title widens the picture");
    cr_assert_gt(p.h, 48 + 38);
    cr_expect_eq(pixel(&p, 4, 48 + 17), RAMP_FIRST);
    cr_expect_eq(pixel(&p, 4, 48 + 17), pixel(&p, 1 * 8, 1 * 8), "low end: the goal's colour");
    cr_expect_eq(pixel(&p, (long)p.w - 5, 48 + 17), RAMP_LAST);
    cr_expect_eq(pixel(&p, (long)p.w - 5, 48 + 17), pixel(&p, 8 * 8 + 4, 4 * 8 + 4),
                 "high end: the farthest cell's colour");
    cr_expect_eq(pixel(&p, 2, 48 + 17), 0xffffffu);
    cr_expect_eq(pixel(&p, 4, 48 + 23), 0x000000u, "the tick of 0");
    for (int x = 0; x < (int)p.w; x++)
        black += pixel(&p, x, 48 + 6) == 0;
    cr_expect_gt(black, 20, "the title, in its middle row");
    free(p.rgb);
}

/* The colours of the direction codes below scale 8 (man 1 ffpng). */
static const unsigned DIR_COLOUR[8] = { 0x2864dc, 0x28aa3c, 0xfabe00, 0xdc2828,
                                        0x00aabe, 0xa0c814, 0xfa7800, 0x963cbe };

/* Read the one field of the stream dir/name. */
static void read_field(const char *name, ff_field *f)
{
    char path[256];
    ff_reader r;
    FILE *in;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    cr_assert_not_null(in = fopen(path, "rb"));
    ff_reader_init(&r, in, path);
    ff_field_init(f);
    cr_assert_eq(ff_field_read(&r, f, NULL), FF_OK, "%s", path);
    fclose(in);
}

/* The colour of a cell of the direction layer at scale 1 whose code is
 * code (a goal covers its whole cell below scale 3). */
static unsigned code_colour(const ff_field *f, size_t i, int code)
{
    if (!(f->grid.cost[i] <= 3.4e38f))
        return WALL;
    if (code == FF_DIR_GOAL)
        return GOAL;
    return code < 8 ? DIR_COLOUR[code] : UNREACHABLE;
}

/* --heading H on a turn-cost field draws the states of heading H: at
 * scale 1 each cell in the colour of heading H's code (so the picture
 * differs from the default exactly where that code is not the best
 * heading's), and at scale 8, arrows on the distance, and on the
 * distance layer, the very picture of a field whose ordinary channels
 * are heading H's, made here by hand as a stream without turn costs. */
Test(ffpng, heading_draws_that_headings_states)
{
    ff_field f;
    picture best;
    size_t n, i;
    int h, differ_total = 0;

    cr_assert_eq(sh("./bin/ffbuild --turn-cost 2 -g 20,20 testdata/movingai/arena.map | "
                    "./bin/ffdir > %s/turn.ff", dir), 0);
    read_field("turn.ff", &f);
    cr_assert(f.turn && f.heading_direction && f.heading_distance);
    n = (size_t)f.grid.w * f.grid.h;
    cr_assert_eq(sh("./bin/ffpng -s 1 --no-legend -l direction %s/turn.ff -o %s/best.png", dir,
                    dir), 0);
    best = decode("best.png");
    cr_assert_eq(best.w, f.grid.w);
    for (h = 0; h < 8; h++) {
        static const char *const name[8] = { "0", "E", "2", "W", "NE", "5", "SW", "7" };
        ff_field plain;
        picture p;
        FILE *out;
        char path[256];
        int differ = 0;
        cr_assert_eq(sh("./bin/ffpng -s 1 --no-legend -l direction --heading %s %s/turn.ff "
                        "-o %s/h.png", name[h], dir, dir), 0);
        p = decode("h.png");
        cr_assert_eq(p.w, best.w);
        cr_assert_eq(p.h, best.h);
        for (i = 0; i < n; i++) {
            long x = (long)(i % f.grid.w), y = (long)(i / f.grid.w);
            int code = f.heading_direction[8 * i + (size_t)h];
            cr_expect_eq(pixel(&p, x, y), code_colour(&f, i, code),
                         "heading %d, cell %ld,%ld (code %d): %06x", h, x, y, code,
                         pixel(&p, x, y));
            cr_expect_eq(pixel(&best, x, y), code_colour(&f, i, f.direction[i]));
            if (code != f.direction[i]) {
                differ++;
                cr_expect_neq(pixel(&p, x, y), pixel(&best, x, y));
            }
        }
        cr_expect_gt(differ, 0, "heading %d: the same codes as the best heading", h);
        differ_total += differ;
        free(p.rgb);

        /* The same field with heading h's channels as its ordinary ones. */
        read_field("turn.ff", &plain);
        for (i = 0; i < n; i++) {
            plain.distance[i] = plain.heading_distance[8 * i + (size_t)h];
            plain.direction[i] = plain.heading_direction[8 * i + (size_t)h];
        }
        free(plain.heading_distance);
        free(plain.heading_direction);
        plain.heading_distance = NULL;
        plain.heading_direction = NULL;
        plain.turn = 0;
        plain.turn_cost = 0;
        ff_field_update_ids(&plain);
        snprintf(path, sizeof path, "%s/plain.ff", dir);
        cr_assert_not_null(out = fopen(path, "wb"));
        cr_assert_eq(ff_field_write(out, &plain, 0, NULL), FF_OK);
        cr_assert_eq(fclose(out), 0);
        ff_field_free(&plain);
        for (int layer = 0; layer < 2; layer++) {
            const char *l = layer ? "distance" : "direction";
            cr_assert_eq(sh("./bin/ffpng -s 8 --no-legend -l %s --heading %s %s/turn.ff "
                            "-o %s/a.png", l, name[h], dir, dir), 0);
            cr_assert_eq(sh("./bin/ffpng -s 8 --no-legend -l %s %s/plain.ff -o %s/b.png", l,
                            dir, dir), 0);
            cr_expect_eq(sh("cmp -s %s/a.png %s/b.png", dir, dir), 0,
                         "heading %d, %s layer: not the picture of heading %d's channels", h,
                         l, h);
        }
    }
    cr_expect_gt(differ_total, (int)n / 2, "the headings' codes should differ often");
    free(best.rgb);
    ff_field_free(&f);
}
