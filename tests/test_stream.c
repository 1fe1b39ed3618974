/* test_stream.c - the ff stream: round trips, ids, refusals. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>

#include "direction.h"
#include "mapread.h"
#include "search.h"
#include "stream.h"

/* A small field with every known channel and one unknown one. */
static void make_field(ff_field *f)
{
    const char *text = "ffmap 1\ncell 0.5\norigin -3 2.25\nlegend # wall\nlegend . 1\n"
                       "legend ~ 2.5\nlegend > 1 E,NE\nlegend G goal 1\nlegend S spawn 1\nmap\n"
                       "#S..~.\n#.>#..\n#..~.G\n";
    FILE *in = tu_string_file(text);
    ff_map_options o;
    size_t n, k;

    ff_field_init(f);
    ff_map_options_init(&o);
    cr_assert_eq(ff_map_read(in, "t", &o, &f->grid, NULL), FF_OK);
    fclose(in);
    n = (size_t)f->grid.w * (size_t)f->grid.h;
    f->distance = malloc(n * sizeof *f->distance);
    f->direction = malloc(n);
    cr_assert_eq(ff_search(&f->grid, f->distance, NULL), FF_OK);
    cr_assert_eq(ff_direction_field(&f->grid, f->distance, f->direction, NULL), FF_OK);
    f->extra = calloc(1, sizeof *f->extra);
    strcpy(f->extra[0].name, "heat");
    f->extra[0].type = FF_T_F32;
    f->extra[0].data = malloc(n * sizeof(float));
    for (k = 0; k < n; k++)
        ((float *)f->extra[0].data)[k] = (float)k / 3.0f - 1.0f;
    f->nextra = 1;
    ff_field_update_ids(f);
}

/* Write f to a memory buffer; the caller frees it. */
static char *write_mem(const ff_field *f, int text, size_t *size)
{
    char *buf = NULL;
    FILE *out = open_memstream(&buf, size);
    cr_assert_eq(ff_field_write(out, f, text, NULL), FF_OK);
    fclose(out);
    return buf;
}

static ff_status read_mem(const char *buf, size_t size, ff_field *f, ff_error *err)
{
    FILE *in = fmemopen((void *)buf, size, "rb");
    ff_reader r;
    ff_status st;

    ff_reader_init(&r, in, "s");
    st = ff_field_read(&r, f, err);
    fclose(in);
    return st;
}

Test(stream, binary_text_binary_is_byte_identical)
{
    ff_field f, g, h;
    size_t nb, nt, nb2;
    char *bin, *text, *bin2;
    ff_error err;

    make_field(&f);
    bin = write_mem(&f, 0, &nb);
    cr_assert_eq(read_mem(bin, nb, &g, &err), FF_OK, "%s", err.msg);
    text = write_mem(&g, 1, &nt);
    cr_assert_eq(read_mem(text, nt, &h, &err), FF_OK, "%s", err.msg);
    bin2 = write_mem(&h, 0, &nb2);
    cr_assert_eq(nb, nb2);
    cr_assert(memcmp(bin, bin2, nb) == 0);
    cr_assert_eq(h.nextra, 1);
    cr_assert_str_eq(h.extra[0].name, "heat");
    cr_assert_eq(h.grid.cell_size, 0.5);
    cr_assert_eq(h.grid.origin_x, -3);
    cr_assert_eq(h.grid.nspawns, 1);
    cr_assert_eq(h.grid.ngoals, 1);
    cr_assert(h.grid.oneway != NULL);
    free(bin);
    free(text);
    free(bin2);
    ff_field_free(&f);
    ff_field_free(&g);
    ff_field_free(&h);
}

Test(stream, two_fields_in_one_stream)
{
    ff_field f, g;
    size_t n1;
    char *one = NULL, *two;
    FILE *in;
    ff_reader r;

    make_field(&f);
    one = write_mem(&f, 0, &n1);
    two = malloc(2 * n1);
    memcpy(two, one, n1);
    memcpy(two + n1, one, n1);
    in = fmemopen(two, 2 * n1, "rb");
    ff_reader_init(&r, in, "s");
    cr_assert_eq(ff_field_read(&r, &g, NULL), FF_OK);
    ff_field_free(&g);
    cr_assert_eq(ff_field_read(&r, &g, NULL), FF_OK);
    ff_field_free(&g);
    cr_assert_eq(ff_field_read(&r, &g, NULL), FF_ENOTFOUND);
    fclose(in);
    free(one);
    free(two);
    ff_field_free(&f);
}

/* A stale channel: the direction of one generation beside the distance
 * of another is refused, and the message says which. */
Test(stream, direction_from_another_generation_is_refused)
{
    ff_field f;
    size_t n;
    char *text;
    ff_field g;
    ff_error err;

    make_field(&f);
    f.direction_id ^= 1;
    text = write_mem(&f, 1, &n);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "direction channel does not match 'id direction") != NULL, "%s",
              err.msg);
    cr_assert(strstr(err.msg, "rerun ffdir") != NULL, "%s", err.msg);
    free(text);
    /* An edited distance value no longer matches its id. */
    f.direction_id ^= 1;
    f.distance[17] += 1;  /* the goal cell (5,2) */
    text = write_mem(&f, 1, &n);  /* ids still say the old distance */
    cr_assert_eq(read_mem(text, n, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "does not match 'id distance") != NULL, "%s", err.msg);
    free(text);
    /* A direction made from another distance (same map and goals, one
     * value changed, ids updated for the distance only) is stale. */
    {
        uint64_t dir = f.direction_id;
        ff_field_update_ids(&f);
        f.direction_id = dir;
    }
    text = write_mem(&f, 1, &n);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "direction channel does not match") != NULL, "%s", err.msg);
    free(text);
    ff_field_free(&f);
}

/* A hand-edited direction (ids left as they were) is refused: the id
 * covers the direction values, not only the distance they came from. */
Test(stream, hand_edited_direction_is_refused)
{
    ff_field f, g;
    ff_error err;
    size_t n, k;
    char *text;

    make_field(&f);
    for (k = 0; k < (size_t)f.grid.w * (size_t)f.grid.h; k++) {
        uint8_t was = f.direction[k];
        f.direction[k] = was == 8 ? 0 : 8;  /* "at a goal" where it is not, or back */
        text = write_mem(&f, 0, &n);
        cr_assert_eq(read_mem(text, n, &g, &err), FF_EINPUT, "cell %zu", k);
        cr_assert(strstr(err.msg, "direction channel does not match") != NULL, "%s", err.msg);
        free(text);
        f.direction[k] = was;
    }
    /* Recomputed ids bless the edit: the id tells generations apart, it
     * does not say the directions are right. */
    f.direction[0] = 8;
    ff_field_update_derived_ids(&f);
    text = write_mem(&f, 0, &n);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_OK, "%s", err.msg);
    ff_field_free(&g);
    free(text);
    ff_field_free(&f);
}

/* Any other channel may carry an id: it is written back, and an edit or a
 * stale base (another distance) is refused; without one it passes
 * unchecked. */
Test(stream, extra_channel_id_is_checked)
{
    ff_field f, g;
    ff_error err;
    size_t n;
    char *text;

    make_field(&f);
    text = write_mem(&f, 1, &n);
    cr_assert(strstr(text, "id heat ") == NULL);
    free(text);
    f.extra[0].has_id = 1;
    ff_field_update_derived_ids(&f);
    cr_assert_eq(f.extra[0].id, ff_channel_id(&f, "heat", FF_T_F32, f.extra[0].data));
    text = write_mem(&f, 1, &n);
    cr_assert(strstr(text, "id heat ") != NULL);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_OK, "%s", err.msg);
    cr_assert(g.extra[0].has_id);
    cr_assert_eq(g.extra[0].id, f.extra[0].id);
    ff_field_free(&g);
    free(text);
    /* One value edited. */
    ((float *)f.extra[0].data)[3] += 1.0f;
    text = write_mem(&f, 0, &n);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "heat channel does not match 'id heat") != NULL, "%s", err.msg);
    free(text);
    ((float *)f.extra[0].data)[3] -= 1.0f;
    /* The same values beside another distance. */
    f.distance[17] += 0.5;  /* the goal cell, finite */
    {
        uint64_t heat = f.extra[0].id;
        ff_field_update_ids(&f);  /* the direction is remade, the heat is not */
        f.extra[0].id = heat;
    }
    text = write_mem(&f, 0, &n);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "heat channel does not match") != NULL, "%s", err.msg);
    cr_assert(strstr(err.msg, "another distance") != NULL, "%s", err.msg);
    free(text);
    /* The name and the type are covered too. */
    cr_assert_neq(ff_channel_id(&f, "heat", FF_T_F32, f.extra[0].data),
                  ff_channel_id(&f, "heaT", FF_T_F32, f.extra[0].data));
    cr_assert_neq(ff_channel_id(&f, "heat", FF_T_F32, f.extra[0].data),
                  ff_channel_id(&f, "heat", FF_T_I32, f.extra[0].data));
    ff_field_free(&f);
}

/* 'id cost' (a channel of the map) is refused; an id for a channel the
 * field does not have is ignored. */
Test(stream, id_lines_of_map_channels_and_absent_ones)
{
    static const char cost[] = "ff 1\nsize 1 1\nchannel cost f32\nid cost 0000000000000000\n"
                               "encoding text\nend\n1\n";
    static const char absent[] = "ff 1\nsize 1 1\nchannel cost f32\nid heat 0000000000000000\n"
                                 "encoding text\nend\n1\n";
    ff_field g;
    ff_error err;

    cr_assert_eq(read_mem(cost, sizeof cost - 1, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "covered by 'id map'") != NULL, "%s", err.msg);
    cr_assert_eq(read_mem(absent, sizeof absent - 1, &g, &err), FF_OK, "%s", err.msg);
    ff_field_free(&g);
}

Test(stream, edited_map_is_refused)
{
    ff_field f, g;
    size_t n;
    char *text;
    ff_error err;

    make_field(&f);
    f.grid.cost[1] = 7;  /* the map changed after the ids were taken */
    text = write_mem(&f, 1, &n);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "id map") != NULL, "%s", err.msg);
    free(text);
    ff_field_free(&f);
}

/* Malformed streams: each refused with a message naming the place. */
typedef struct {
    char text[200];
    char want[48];      /* a piece of the message */
} bad_case;



ParameterizedTestParameters(stream, malformed)
{
    static bad_case cases[] = {
        { "ff 2\nsize 1 1\nchannel cost f32\nencoding text\nend\n1\n", "bad magic" },
        { "PF\n", "bad magic" },
        { "ff 1\nsize 1 1\nchannel cost f32\nencoding zip\nend\n", "unknown encoding" },
        { "ff 1\nsize 1 1\nchannel cost f32\nend\n1\n", "without 'encoding'" },
        { "ff 1\nchannel cost f32\nencoding text\nend\n1\n", "without 'size'" },
        { "ff 1\nsize 1 1\nencoding text\nend\n1\n", "no 'channel cost f32'" },
        { "ff 1\nsize 3000000000 3000000000\nchannel cost f32\nencoding binary\nend\n", "more than" },
        { "ff 1\nsize -1 4\nchannel cost f32\nencoding binary\nend\n", "positive" },
        { "ff 1\nsize 2 1\nchannel cost f32\nencoding binary\nend\n\1\2\3", "truncated payload" },
        { "ff 1\nsize 2 1\nchannel cost f32\nencoding text\nend\n1 x\n", "'x' is not a f32" },
        { "ff 1\nsize 2 1\nchannel cost f32\nencoding text\nend\n1\n", "row 0 has 1 values" },
        { "ff 1\nsize 2 1\nchannel cost f32\nencoding text\nend\n1 -2\n", "must be >= 0" },
        { "ff 1\nsize 2 1\nchannel cost f32\nencoding text\nend\n1 nan\n", "is not a f32" },
        { "ff 1\nsize 2 1\nchannel cost f32\nwhat 3\nencoding text\nend\n1 1\n", "unknown header key" },
        { "ff 1\nsize 2 1\nchannel cost f64\nencoding text\nend\n1 1\n", "must be f32" },
        { "ff 1\nsize 2 1\nchannel cost f32\nchannel direction u8\nid direction 0000000000000000\nencoding text\nend\n1 1\n1 12\n", "codes are 0 to 9" },
        { "ff 1\nsize 2 1\nchannel cost f32\ngoal 5 0\nencoding text\nend\n1 1\n", "outside" },
        { "ff 1\nsize 2 1\nchannel cost f32\nchannel distance f64\nencoding text\nend\n1 1\n0 1\n", "without 'id distance'" },
        { "ff 1\nsize 2 1\nmoves 6\n", "'moves' must be 4 or 8" },
        { "ff 1\nsize 2 1\nchannel cost f32\nencoding text\n", "truncated header" },
    };
    return cr_make_param_array(bad_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(bad_case *c, stream, malformed)
{
    ff_field f;
    ff_error err;

    ff_error_clear(&err);
    cr_assert_eq(read_mem(c->text, strlen(c->text), &f, &err),
                 FF_EINPUT, "accepted: %s", c->text);
    cr_assert(strstr(err.msg, c->want) != NULL, "message '%s' lacks '%s'", err.msg, c->want);
    cr_assert(err.line > 0 || err.byte >= 0 || strstr(c->want, "must be >= 0") || strstr(c->want, "outside") || strstr(c->want, "codes") ||
              strstr(c->want, "id distance"), "no place in the error for %s", c->text);
}

Test(stream, text_values_read_back_to_the_same_bits)
{
    ff_field f, g;
    size_t n, k;
    char *text;

    make_field(&f);
    /* Awkward values: subnormal, large, negative zero in an extra channel. */
    ((float *)f.extra[0].data)[0] = 1.17549435e-38f / 3;
    ((float *)f.extra[0].data)[1] = 3.4028235e38f;
    ((float *)f.extra[0].data)[2] = -0.0f;
    ((float *)f.extra[0].data)[3] = 0.1f;
    text = write_mem(&f, 1, &n);
    cr_assert_eq(read_mem(text, n, &g, NULL), FF_OK);
    for (k = 0; k < (size_t)f.grid.w * (size_t)f.grid.h; k++) {
        cr_assert(memcmp(&((float *)f.extra[0].data)[k], &((float *)g.extra[0].data)[k], 4) == 0);
        cr_assert(memcmp(&f.distance[k], &g.distance[k], 8) == 0);
    }
    free(text);
    ff_field_free(&f);
    ff_field_free(&g);
}

/* ---- turn-cost fields (man 5 ff, "Turn-cost fields") ---- */

#include "turn.h"

/* make_field()'s map as a turn-cost field, with every channel. */
static void make_turn_field(ff_field *f, double turn_cost)
{
    size_t n;

    make_field(f);
    n = (size_t)f->grid.w * (size_t)f->grid.h;
    f->turn = 1;
    f->turn_cost = turn_cost;
    f->heading_distance = malloc(8 * n * sizeof *f->heading_distance);
    f->heading_direction = malloc(8 * n);
    cr_assert_eq(ff_turn_search(&f->grid, turn_cost, f->heading_distance, f->distance, NULL),
                 FF_OK);
    cr_assert_eq(ff_turn_direction(&f->grid, turn_cost, f->heading_distance,
                                   f->heading_direction, f->direction, NULL),
                 FF_OK);
    ff_field_update_ids(f);
}

Test(stream, turn_field_binary_text_binary_is_byte_identical)
{
    ff_field f, g, h;
    size_t nb, nt, nb2, n;
    char *bin, *text, *bin2;
    ff_error err;

    make_turn_field(&f, 0.75);
    n = (size_t)f.grid.w * (size_t)f.grid.h;
    bin = write_mem(&f, 0, &nb);
    cr_assert(strstr(bin, "\nturn-cost 0.75\n") != NULL);
    cr_assert(strstr(bin, "\nchannel heading_distance f64x8\nchannel heading_direction u8x8\n"));
    cr_assert_eq(read_mem(bin, nb, &g, &err), FF_OK, "%s", err.msg);
    text = write_mem(&g, 1, &nt);
    cr_assert_eq(read_mem(text, nt, &h, &err), FF_OK, "%s", err.msg);
    bin2 = write_mem(&h, 0, &nb2);
    cr_assert_eq(nb, nb2);
    cr_assert(memcmp(bin, bin2, nb) == 0);
    cr_assert_eq(h.turn, 1);
    cr_assert_eq(h.turn_cost, 0.75);
    cr_assert(memcmp(h.heading_distance, f.heading_distance, 8 * n * sizeof(double)) == 0);
    cr_assert(memcmp(h.heading_direction, f.heading_direction, 8 * n) == 0);
    /* A text row of an x8 channel holds 8 * W values: skip the cost,
     * oneway, distance and direction rows. */
    {
        const char *p = strstr(text, "\nend\n") + 5;
        int lines = 0, tokens = 1;
        for (; lines < 4 * f.grid.h; p++)
            lines += *p == '\n';
        for (; *p != '\n'; p++)
            tokens += *p == ' ';
        cr_assert_eq(tokens, 8 * f.grid.w);
    }
    free(bin);
    free(text);
    free(bin2);
    ff_field_free(&f);
    ff_field_free(&g);
    ff_field_free(&h);
}

/* What the turn-cost field is checked for: its ids cover the turn cost
 * and the heading distances; the cell distance is the least of its
 * headings'; the heading channels come with the ordinary ones. */
Test(stream, edited_turn_fields_are_refused)
{
    ff_field f, g;
    size_t n;
    char *text;
    ff_error err;

    make_turn_field(&f, 1);
    /* a heading distance changed after the ids were set */
    f.heading_distance[8 * 1 + 3] += 0.5;
    text = write_mem(&f, 1, &n);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "does not match 'id distance") != NULL, "%s", err.msg);
    free(text);
    f.heading_distance[8 * 1 + 3] -= 0.5;
    /* another turn cost with the same channels */
    f.turn_cost = 2;
    text = write_mem(&f, 1, &n);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "does not match 'id distance") != NULL, "%s", err.msg);
    free(text);
    f.turn_cost = 1;
    /* a cell distance that is not the least of its headings', ids and all */
    f.distance[1] += 1;
    ff_field_update_ids(&f);
    text = write_mem(&f, 1, &n);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "least of its heading distances") != NULL, "%s", err.msg);
    free(text);
    f.distance[1] -= 1;
    ff_field_update_ids(&f);
    /* a heading direction changed by hand */
    f.heading_direction[8 * 1 + 2] ^= 1;
    text = write_mem(&f, 1, &n);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "heading_direction channel does not match 'id heading_direction")
              != NULL, "%s", err.msg);
    free(text);
    f.heading_direction[8 * 1 + 2] ^= 1;
    /* a direction without heading_direction */
    free(f.heading_direction);
    f.heading_direction = NULL;
    ff_field_update_ids(&f);
    text = write_mem(&f, 1, &n);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "needs 'channel heading_direction u8x8'") != NULL, "%s", err.msg);
    free(text);
    ff_field_free(&f);
}

/* The header of a one-cell field, then its payload. */
static ff_status read_text_stream(const char *head, const char *payload, ff_field *f,
                                  ff_error *err)
{
    char buf[1024];

    snprintf(buf, sizeof buf,
             "ff 1\nsize 2 1\ngoal 0 0\nchannel cost f32\n%sencoding text\nend\n1 1\n%s", head,
             payload);
    return read_mem(buf, strlen(buf), f, err);
}

/* Old readers refuse nothing they accepted before: without a turn-cost
 * key the heading names are channels like any other, of any type. */
Test(stream, heading_names_without_turn_cost_are_ordinary_channels)
{
    ff_field f;
    ff_error err;
    size_t n;
    char *out;

    cr_assert_eq(read_text_stream("channel heading_distance u8\nchannel heading_direction f32\n",
                                  "7 9\n0.5 -2\n", &f, &err),
                 FF_OK, "%s", err.msg);
    cr_assert_eq(f.turn, 0);
    cr_assert_null(f.heading_distance);
    cr_assert_eq(f.nextra, 2);
    cr_assert_str_eq(f.extra[0].name, "heading_distance");
    cr_assert_eq(((uint8_t *)f.extra[0].data)[1], 9);
    out = write_mem(&f, 1, &n);
    cr_assert(strstr(out, "channel heading_distance u8\nchannel heading_direction f32\n"));
    cr_assert(strstr(out, "\n7 9\n0.5 -2\n"));
    free(out);
    ff_field_free(&f);
    /* An x8 channel of any name is kept, 8 values a cell, and passed on. */
    cr_assert_eq(read_text_stream("channel heading_distance f64x8\nchannel wind i32x8\n",
                                  "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
                                  "-1 -2 -3 -4 -5 -6 -7 -8 1 2 3 4 5 6 7 8\n",
                                  &f, &err),
                 FF_OK, "%s", err.msg);
    cr_assert_eq(f.nextra, 2);
    cr_assert_eq(f.extra[1].lanes, 8);
    cr_assert_eq(((int32_t *)f.extra[1].data)[7], -8);
    out = write_mem(&f, 1, &n);
    cr_assert(strstr(out, "channel heading_distance f64x8\nchannel wind i32x8\n"));
    cr_assert(strstr(out, "\n-1 -2 -3 -4 -5 -6 -7 -8 1 2 3 4 5 6 7 8\n"));
    free(out);
    ff_field_free(&f);
}

#define TURN_HEAD "ff 1\nsize 2 1\ngoal 0 0\nchannel cost f32\n"
#define TURN_TAIL "encoding text\nend\n1 1\n"

ParameterizedTestParameters(stream, bad_turn_headers)
{
    static bad_case cases[] = {
        { TURN_HEAD "turn-cost -1\n" TURN_TAIL, "'turn-cost' wants one number from 0 to 3.4e38" },
        { TURN_HEAD "turn-cost inf\n" TURN_TAIL, "'turn-cost' wants one number from 0 to 3.4e38" },
        { TURN_HEAD "turn-cost 1 2\n" TURN_TAIL, "'turn-cost' wants one number from 0 to 3.4e38" },
        { TURN_HEAD "turn-cost 1\nchannel heading_distance f64\n" TURN_TAIL,
          "must be f64x8 in a turn-cost field" },
        { TURN_HEAD "turn-cost 1\nchannel heading_direction u16x8\n" TURN_TAIL,
          "must be u8x8 in a turn-cost field" },
        { TURN_HEAD "channel x u8x7\n" TURN_TAIL, "unknown type 'u8x7'" },
        { TURN_HEAD "channel x x8\n" TURN_TAIL, "unknown type 'x8'" },
        { TURN_HEAD "channel distance f64x8\n" TURN_TAIL, "channel 'distance' must be f64, not f64x8" },
        { TURN_HEAD "turn-cost 1\nchannel wind u8x8\n" TURN_TAIL "1 2 3 4 5 6 7 8 1 2 3 4 5 6 7\n",
          "row 0 has 15 values, expected 16" },
    };
    return cr_make_param_array(bad_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(bad_case *c, stream, bad_turn_headers)
{
    ff_field f;
    ff_error err;

    cr_assert_eq(read_mem(c->text, strlen(c->text), &f, &err), FF_EINPUT, "%s", c->text);
    cr_assert(strstr(err.msg, c->want) != NULL, "%s: %s", c->text, err.msg);
    cr_assert_gt(err.line, 0, "%s", c->text);
}

/* ---- any-angle fields (man 5 ff, the 'any-angle' key) ---- */

/* The key travels in both encodings, and the distance id covers it: the
 * same distances without the key are another field. */
Test(stream, any_angle_key_round_trips_and_is_in_the_distance_id)
{
    ff_field f, g;
    size_t n;
    char *text, *bin;
    uint64_t with_key;
    ff_error err;

    make_field(&f);
    f.any_angle = 1;
    ff_field_update_ids(&f);
    with_key = f.distance_id;
    text = write_mem(&f, 1, &n);
    cr_assert(strstr(text, "\nradius 0\nany-angle\ngoal ") != NULL, "%s", text);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(g.any_angle, 1);
    ff_field_free(&g);
    free(text);
    bin = write_mem(&f, 0, &n);
    cr_assert_eq(read_mem(bin, n, &g, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(g.any_angle, 1);
    cr_assert_eq(g.distance_id, with_key);
    ff_field_free(&g);
    free(bin);
    f.any_angle = 0;
    ff_field_update_ids(&f);
    cr_assert_neq(f.distance_id, with_key);
    /* The key dropped by hand: the id no longer matches. */
    f.any_angle = 1;
    ff_field_update_ids(&f);
    text = write_mem(&f, 1, &n);
    memmove(strstr(text, "any-angle\n"), strstr(text, "any-angle\n") + 10,
            strlen(strstr(text, "any-angle\n") + 10) + 1);
    cr_assert_eq(read_mem(text, strlen(text), &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "does not match 'id distance") != NULL, "%s", err.msg);
    free(text);
    ff_field_free(&f);
}

Test(stream, any_angle_key_takes_no_value_and_no_turn_cost)
{
    ff_field f;
    ff_error err;

    cr_assert_eq(read_text_stream("any-angle yes\n", "", &f, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "'any-angle' takes no value") != NULL, "%s", err.msg);
    cr_assert_eq(read_text_stream("any-angle\nturn-cost 1\n", "", &f, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "a field is one or the other") != NULL, "%s", err.msg);
    cr_assert_eq(read_text_stream("any-angle\n", "", &f, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(f.any_angle, 1);
    ff_field_free(&f);
}

/* A channel of two values a cell (TYPEx2, as ffdir's vector channel):
 * both encodings, its id with type code 16 more than its base type's. */
Test(stream, x2_channels_round_trip_with_their_id)
{
    ff_field f, g;
    size_t n, cells, k;
    char *text, *bin;
    float *v;
    ff_error err;

    make_field(&f);
    cells = (size_t)f.grid.w * (size_t)f.grid.h;
    v = malloc(2 * cells * sizeof *v);
    cr_assert_not_null(v);
    for (k = 0; k < 2 * cells; k++)
        v[k] = (float)k / 4.0f - 3.0f;
    f.extra = realloc(f.extra, 2 * sizeof *f.extra);
    cr_assert_not_null(f.extra);
    strcpy(f.extra[1].name, "vector");
    f.extra[1].type = FF_T_F32;
    f.extra[1].lanes = 2;
    f.extra[1].data = v;
    f.extra[1].has_id = 1;
    f.nextra = 2;
    ff_field_update_ids(&f);
    cr_assert_eq(f.extra[1].id, ff_channel_id_lanes(&f, "vector", FF_T_F32, 2, v));
    cr_assert_neq(f.extra[1].id, ff_channel_id_lanes(&f, "vector", FF_T_F32, 1, v));
    text = write_mem(&f, 1, &n);
    cr_assert(strstr(text, "\nchannel vector f32x2\n") != NULL);
    cr_assert_eq(read_mem(text, n, &g, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(g.extra[1].lanes, 2);
    cr_assert_eq(memcmp(g.extra[1].data, v, 2 * cells * sizeof *v), 0);
    ff_field_free(&g);
    free(text);
    bin = write_mem(&f, 0, &n);
    cr_assert_eq(read_mem(bin, n, &g, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(memcmp(g.extra[1].data, v, 2 * cells * sizeof *v), 0);
    ff_field_free(&g);
    /* A changed value no longer matches its id. */
    v[3] += 1;
    free(bin);
    bin = write_mem(&f, 0, &n);
    cr_assert_eq(read_mem(bin, n, &g, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "vector") != NULL, "%s", err.msg);
    free(bin);
    ff_field_free(&f);
    /* x2 of a type that does not exist, and a bad suffix, are refused. */
    cr_assert_eq(read_text_stream("channel v q8x2\n", "", &g, &err), FF_EINPUT);
    cr_assert_eq(read_text_stream("channel v f32x3\n", "", &g, &err), FF_EINPUT);
}

/* A spawn cell named many times is one spawn cell, and spawns are kept by
 * ascending cell index (the row-major order placement draws from), so
 * repeats cannot buy room for more agents. */
Test(stream, repeated_spawns_count_once)
{
    static const char head[] = "ff 1\nsize 3 2\nchannel cost f32\nencoding text\n";
    char text[4096];
    size_t n = 0;
    ff_field f;
    ff_error err;
    int k;

    n += (size_t)snprintf(text + n, sizeof text - n, "%s", head);
    for (k = 0; k < 100; k++)
        n += (size_t)snprintf(text + n, sizeof text - n, "spawn %d %d\n", k % 2 ? 2 : 1, k % 3 ? 1 : 0);
    n += (size_t)snprintf(text + n, sizeof text - n, "end\n1 1 1\n1 1 1\n");
    cr_assert_lt(n, sizeof text);
    cr_assert_eq(read_mem(text, n, &f, &err), FF_OK, "%s", err.msg);
    /* Cells (1,0)=1, (2,0)=2, (1,1)=4, (2,1)=5 are named, each many times. */
    cr_assert_eq(f.grid.nspawns, 4);
    cr_assert_eq(f.grid.spawns[0], 1);
    cr_assert_eq(f.grid.spawns[1], 2);
    cr_assert_eq(f.grid.spawns[2], 4);
    cr_assert_eq(f.grid.spawns[3], 5);
    ff_field_free(&f);
}
