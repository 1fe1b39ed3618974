/* ffpng - a PNG picture of an ff stream's map or field, with paths, crowd
 * traces and points drawn over it (man 1 ffpng). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animate.h"
#include "draw.h"
#include "fieldsel.h"
#include "infile.h"
#include "options.h"
#include "outfile.h"
#include "pngout.h"
#include "ranges.h"
#include "stream.h"
#include "turn.h"

static const char *prog = "ffpng";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ffpng [-s SCALE] [-l LAYER] [--legend | --no-legend] [--grid N]\n"
            "             [--path FILE]... [--trace FILE]... [--points FILE]... [--every N]\n"
            "             [--animate] [--fps F] [--progress] [--heading H] [--name NAME]\n"
            "             [--max-cells N] [-o FILE] [STREAM]\n"
            "       ffpng --list [STREAM]\n"
            "Draw the map or a field of an ff stream as a PNG, with overlays.\n"
            "  -s, --scale N        pixels per cell (default: about 1024 on the long side)\n"
            "  -l, --layer LAYER    map, cost, distance, direction or density (agents per cell\n"
            "                       of the traces; default: the richest of the stream)\n"
            "      --no-legend      leave out the key below the map (title, colour bar, swatches)\n"
            "                       and an animation's tick labels\n"
            "      --legend         the key (the default)\n"
            "      --grid N         cell coordinates every N cells along the bottom and right\n"
            "      --path FILE      draw a path ('x y' a line, world units)\n"
            "      --trace FILE     draw a crowd trace ('tick id x y [radius]' a line)\n"
            "      --points FILE    draw markers ('x y' a line)\n"
            "      --every N        of the traces, keep the first tick of every N (default 1)\n"
            "      --animate        an animated PNG of the --trace, a frame per kept tick\n"
            "      --fps F          the animation's frames per second (default 10)\n"
            "      --progress       with --animate: show the frames written on stderr\n"
            "                       (the default on a terminal)\n"
            "      --heading H      on a turn-cost field, the directions and distances of the\n"
            "                       states of heading H (0..7 or N E S W NE SE SW NW)\n"
            "      --name NAME      draw the field of that name in a multi-field stream\n"
            "      --list           list the names of the stream's fields and stop\n"
            "      --max-cells N    refuse streams of more cells (default 1073741824)\n"
            "  -o, --output FILE    write to FILE (atomically) instead of stdout\n"
            "  -h, --help           this help;  -V, --version  the version\n"
            "Overlays may repeat and are drawn in order; FILE '-' is stdin (once).\n");
}

static int usage_error(const char *fmt, const char *arg)
{
    return ff_usage_error(prog, fmt, arg);
}

/* The overlays in command-line order. */
typedef struct {
    int kind;  /* 'p' path, 't' trace, 'm' points */
    const char *path;
} overlay_arg;

/* Read the overlays; with anim, the trace is scanned for the animation
 * instead, and stays open in *anim_file. */
static ff_status read_overlays(ff_overlay *ov, const overlay_arg *arg, int n, uint64_t every,
                               ff_animation *anim, FILE **anim_file, ff_error *err)
{
    int k;

    for (k = 0; k < n; k++) {
        FILE *f = ff_infile_open(arg[k].path, err);
        ff_status st;
        if (!f)
            return err->status;
        if (anim && arg[k].kind == 't') {
            *anim_file = f;
            if ((st = ff_animation_scan(anim, f, arg[k].path, every, ov, err)) != FF_OK)
                return st;
            continue;
        }
        st = arg[k].kind == 'p'   ? ff_overlay_read_path(ov, f, arg[k].path, err)
             : arg[k].kind == 't' ? ff_overlay_read_trace(ov, f, arg[k].path, err)
                                  : ff_overlay_read_points(ov, f, arg[k].path, err);
        ff_infile_close(f);
        if (st != FF_OK)
            return st;
    }
    return FF_OK;
}

/* Draw every row into the PNG writer, one row buffer for the picture. */
static ff_status write_picture(ff_drawing *d, FILE *out, const char *out_name, ff_error *err)
{
    ff_png_writer png;
    uint8_t *row;
    uint32_t y;

    if (!(row = malloc((size_t)d->width * 3)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for a row of %u pixels",
                            (unsigned)d->width);
    if (ff_png_begin(&png, out, d->width, d->height, out_name, err) != FF_OK) {
        free(row);
        return err->status;
    }
    for (y = 0; y < d->height; y++) {
        ff_draw_row(d, row);
        if (ff_png_row(&png, row, err) != FF_OK) {
            ff_png_discard(&png);
            free(row);
            return err->status;
        }
    }
    free(row);
    return ff_png_end(&png, err);
}

/* What the command line asks for. */
typedef struct {
    ff_draw_options opt;   /* scale 0: the default */
    int layer;             /* -1: the richest */
    const char *in_path, *out_path;
    overlay_arg *overlay;  /* argc entries at most, in command-line order */
    int noverlays;
    uint64_t max_cells;
    const char *name;      /* --name, or NULL */
    int list;              /* --list */
    uint64_t every;        /* --every */
    int animate;           /* --animate */
    int progress;          /* --progress */
    ff_animate_options anim;  /* --fps, the trail */
    int ntraces;           /* --trace options */
    int heading;           /* --heading, or -1 */
} request;

/* Parse the command line into r; returns -1 to go on, else the exit
 * status (after --help, --version or a usage error). */
static int parse_args(int argc, char **argv, request *r)
{
    static const struct option longopts[] = {
        { "scale", required_argument, NULL, 's' },
        { "layer", required_argument, NULL, 'l' },
        { "legend", no_argument, NULL, 'L' },
        { "no-legend", no_argument, NULL, 'n' },
        { "grid", required_argument, NULL, 'g' },
        { "path", required_argument, NULL, 'p' },
        { "trace", required_argument, NULL, 't' },
        { "points", required_argument, NULL, 'm' },
        { "every", required_argument, NULL, 'e' },
        { "animate", no_argument, NULL, 'A' },
        { "fps", required_argument, NULL, 'F' },
        { "progress", no_argument, NULL, 'P' },
        { "max-cells", required_argument, NULL, 'M' },
        { "name", required_argument, NULL, 'N' },
        { "heading", required_argument, NULL, 'H' },
        { "list", no_argument, NULL, 'T' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    int c, k, stdin_uses;
    long long v;

    opterr = 0;

    while ((c = getopt_long(argc, argv, ":s:l:o:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 's':
            if (ff_parse_int_in(optarg, FF_RANGE_PNG_PIXELS, &v))
                return usage_error("--scale '%s': not a whole number of pixels, 1 or more",
                                   optarg);
            r->opt.scale = (int)v;
            break;
        case 'l':
            if ((r->layer = ff_layer_parse(optarg)) < 0)
                return usage_error("--layer '%s': not map, cost, distance, direction or density",
                                   optarg);
            break;
        case 'L': r->opt.legend = 1; break;
        case 'n': r->opt.legend = 0; break;
        case 'g':
            if (ff_parse_int_in(optarg, FF_RANGE_PNG_GRID, &v))
                return usage_error("--grid '%s': not a whole number of cells, 1 or more", optarg);
            r->opt.grid = (int)v;
            break;
        case 'p': case 't': case 'm':
            r->ntraces += c == 't';
            r->overlay[r->noverlays].kind = c;
            r->overlay[r->noverlays++].path = optarg;
            break;
        case 'e':
            if (ff_parse_int_in(optarg, FF_RANGE_PNG_EVERY, &v))
                return usage_error("--every '%s': not a whole number of ticks, 1 or more",
                                   optarg);
            r->every = (uint64_t)v;
            break;
        case 'A': r->animate = 1; break;
        case 'P': r->progress = 1; break;
        case 'F':
            if (ff_parse_int_in(optarg, FF_RANGE_PNG_FPS, &v))
                return usage_error("--fps '%s': not a whole number of frames per second, 1 to 1000", optarg);
            r->anim.fps = (uint16_t)v;
            break;
        case 'M':
            if (ff_option_max_cells(prog, optarg, &r->max_cells))
                return 2;
            break;
        case 'N': r->name = optarg; break;
        case 'H':
            if ((r->heading = ff_heading_parse(optarg)) < 0)
                return usage_error("--heading '%s': not a heading (0 to 7, or N E S W NE SE SW "
                                   "NW)", optarg);
            break;
        case 'T': r->list = 1; break;
        case 'o':
            if (ff_option_output(prog, "-o", optarg))
                return 2;
            r->out_path = optarg;
            break;
        case 'h': usage(stdout); return ff_stdout_done(prog);
        case 'V': return ff_print_version(prog);
        default: return ff_bad_option(prog, c, argv);
        }
    }
    if (argc - optind > 1)
        return usage_error("'%s': one stream at most", argv[optind + 1]);
    if (optind < argc)
        r->in_path = argv[optind];
    stdin_uses = strcmp(r->in_path, "-") == 0;
    for (k = 0; k < r->noverlays; k++)
        stdin_uses += strcmp(r->overlay[k].path, "-") == 0;
    if (stdin_uses > 1)
        return usage_error("%s", "-: standard input ('-', or no STREAM) can feed one input only");
    if (r->animate && r->ntraces != 1)
        return usage_error("%s", "--animate replays one --trace: give exactly one");
    if (r->heading >= 0 && r->layer >= 0 && r->layer != FF_LAYER_DIRECTION &&
        r->layer != FF_LAYER_DISTANCE)
        return usage_error("--heading: the %s layer is the same for every heading (it goes with "
                           "the direction and distance layers)", ff_layer_name((ff_layer)r->layer));
    if (r->layer == FF_LAYER_DENSITY && r->ntraces == 0)
        return usage_error("%s", "--layer density: it counts the agents of a --trace, give one");
    if (!r->list && ff_option_binary_output(prog, r->out_path, NULL))
        return 2;
    return -1;
}

/* Read the stream and the overlays, draw, write; returns the exit status. */
static int draw_stream(request *r)
{
    ff_reader reader;
    ff_field field;
    ff_overlay ov;
    ff_drawing drawing;
    ff_animation anim;
    ff_outfile out;
    ff_error err;
    ff_status st;
    uint32_t width, height;
    FILE *in, *anim_file = NULL;
    const char *out_name = r->out_path ? r->out_path : "-";

    ff_error_clear(&err);
    if (r->list) {  /* to -o FILE (atomically) or stdout, as every --list */
        st = ff_field_list_file(r->in_path, r->max_cells, r->out_path, &err);
        if (st != FF_OK)
            ff_error_print(stderr, prog, &err);
        return ff_exit_status(st);
    }
    if (!(in = ff_infile_open(r->in_path, &err))) {
        ff_error_print(stderr, prog, &err);
        return ff_exit_status(err.status);
    }
    ff_reader_init(&reader, in, r->in_path);
    reader.max_cells = r->max_cells;
    /* One field: the only one, or the one named by --name. */
    st = ff_field_select(&reader, r->name, &field, &err);
    ff_infile_close(in);
    if (st != FF_OK) {
        ff_error_print(stderr, prog, &err);
        return ff_exit_status(err.status);
    }
    /* --heading: the heading's channels in place of the best heading's. */
    if (r->heading >= 0) {
        if (ff_field_as_heading(&field, r->heading, &err) != FF_OK) {
            ff_error_set(&err, FF_EUSAGE, r->in_path, 0, 0,
                         "--heading: the field has no headings (build it with ffbuild "
                         "--turn-cost)");
            ff_field_free(&field);
            ff_error_print(stderr, prog, &err);
            return ff_exit_status(err.status);
        }
        r->opt.heading_name = ff_dir_name[r->heading];
    }
    r->opt.layer = r->layer >= 0 ? (ff_layer)r->layer : ff_layer_richest(&field);
    if (!r->opt.scale)
        r->opt.scale = ff_draw_default_scale(&field.grid);
    ff_overlay_init(&ov, &field.grid, r->opt.scale);
    ov.every = r->every;
    r->opt.density = &ov;
    r->opt.background = r->animate;
    r->anim.label = r->opt.legend;
    memset(&anim, 0, sizeof anim);
    /* Everything that can be refused is, before any output. */
    if ((r->opt.layer == FF_LAYER_DENSITY && ff_overlay_want_density(&ov, &err) != FF_OK) ||
        ff_layer_check(&field, r->opt.layer, r->in_path, &err) != FF_OK ||
        ff_draw_size(&field, &r->opt, NULL, &width, &height, &err) != FF_OK ||
        read_overlays(&ov, r->overlay, r->noverlays, r->every, r->animate ? &anim : NULL,
                      &anim_file, &err) != FF_OK ||
        ff_draw_begin(&drawing, &field, &r->opt, &ov, &err) != FF_OK)
        goto failed;
    if (ff_outfile_open(&out, r->out_path, &err) != FF_OK)
        goto failed_drawing;
    if (r->animate) {
        ff_progress frames_written;
        ff_progress_begin(&frames_written, ff_progress_wanted(stderr, r->progress) ? stderr : NULL,
                          prog, "frame", anim.frames);
        r->anim.progress = &frames_written;
        st = ff_animation_write(&anim, &drawing, &ov, &r->anim, out.f, out_name, &err);
        ff_progress_end(&frames_written);
    } else {
        st = write_picture(&drawing, out.f, out_name, &err);
    }
    if (st != FF_OK) {
        ff_outfile_abort(&out);
        goto failed_drawing;
    }
    if (ff_outfile_commit(&out, &err) != FF_OK)
        goto failed_drawing;
    ff_draw_end(&drawing);
    ff_animation_free(&anim);
    ff_infile_close(anim_file);
    ff_overlay_free(&ov);
    ff_field_free(&field);
    return 0;
failed_drawing:
    ff_draw_end(&drawing);
failed:
    ff_animation_free(&anim);
    ff_infile_close(anim_file);
    ff_overlay_free(&ov);
    ff_field_free(&field);
    ff_error_print(stderr, prog, &err);
    return ff_exit_status(err.status);
}

int main(int argc, char **argv)
{
    request r = { .opt = { .legend = 1 }, .layer = -1, .in_path = "-", .every = 1, .heading = -1,
                  .anim = { .fps = 10, .trail = 8 } };
    int status;

    if (!(r.overlay = malloc((size_t)argc * sizeof *r.overlay))) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 3;
    }
    status = parse_args(argc, argv, &r);
    if (status < 0)
        status = draw_stream(&r);
    free(r.overlay);
    return status;
}
