/* ffdir - add the direction field (the optimal next step of every cell) to
 * an ff stream (man 1 ffdir). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anyangle.h"
#include "direction.h"
#include "fieldsel.h"
#include "infile.h"
#include "options.h"
#include "outfile.h"
#include "stream.h"
#include "turn.h"

static const char *prog = "ffdir";

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ffdir [--text] [--max-cells N] [-o FILE] [STREAM]\n"
            "       ffdir --list [STREAM]\n"
            "Add the direction channel to an ff stream that has a distance channel\n"
            "(and, on a turn-cost field, the heading_direction channel; on an any-angle\n"
            "field, the vector channel instead of the direction channel).\n"
            "Every other channel is passed on untouched; each field of a multi-field\n"
            "stream is done in turn and keeps its name.\n"
            "      --list           print the name of each field, one a line ('-': none)\n"
            "      --text           write the text encoding\n"
            "      --max-cells N    refuse streams of more cells (default 1073741824)\n"
            "  -o, --output FILE    write to FILE (atomically) instead of stdout\n"
            "  -h, --help           this help;  -V, --version  the version\n");
}

/* An any-angle field's directions: the vector channel, two f32 a cell
 * (man 5 ff), in place of a vector channel it had; no direction codes,
 * which a step cannot hold. */
static ff_status add_vectors(ff_field *field, ff_error *err)
{
    size_t n = (size_t)field->grid.w * (size_t)field->grid.h;
    float *toward = malloc(2 * n * sizeof *toward);
    ff_channel *ch;

    if (!toward)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
    if (ff_anyangle_directions(&field->grid, field->distance, toward, err) != FF_OK) {
        free(toward);
        return err->status;
    }
    free(field->direction);
    field->direction = NULL;
    if (!(ch = ff_field_put_extra(field, "vector", FF_T_F32, 2, toward)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
    ch->has_id = 1;
    return FF_OK;
}

/* The directions of field (read from in_path): its vectors for an
 * any-angle field, else its direction codes (and a turn-cost field's
 * headings' codes). */
static ff_status add_directions(ff_field *field, const char *in_path, ff_error *err)
{
    size_t n = (size_t)field->grid.w * (size_t)field->grid.h;

    if (!field->distance)
        return ff_error_set(err, FF_EINPUT, in_path, 0, 0,
                            "the stream has no distance channel: run ffbuild first");
    if (field->any_angle) {
        if (add_vectors(field, err) != FF_OK) {
            if (!err->file[0])
                snprintf(err->file, sizeof err->file, "%s", in_path);
            return err->status;
        }
        return FF_OK;
    }
    if (!field->direction && !(field->direction = malloc(n)))
        return ff_error_set(err, FF_ENOMEM, in_path, 0, 0, "out of memory");
    if (field->turn && !field->heading_direction &&
        !(field->heading_direction = malloc(8 * n)))
        return ff_error_set(err, FF_ENOMEM, in_path, 0, 0, "out of memory");
    return field->turn ? ff_turn_direction(&field->grid, field->turn_cost, field->heading_distance,
                                           field->heading_direction, field->direction, err)
                       : ff_direction_field(&field->grid, field->distance, field->direction, err);
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "list", no_argument, NULL, 'L' },
        { "text", no_argument, NULL, 't' },
        { "max-cells", required_argument, NULL, 'M' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    const char *out_path = NULL, *in_path = "-";
    int text = 0, list = 0, c, nfields = 0;
    uint64_t max_cells = 0;
    ff_error err;
    ff_field field;
    ff_outfile out;
    ff_reader reader;
    ff_status st;
    FILE *in = NULL;

    ff_error_clear(&err);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'L': list = 1; break;
        case 't': text = 1; break;
        case 'M':
            if (ff_option_max_cells(prog, optarg, &max_cells))
                return 2;
            break;
        case 'o':
            if (ff_option_output(prog, "-o", optarg))
                return 2;
            out_path = optarg;
            break;
        case 'h': usage(stdout); return ff_stdout_done(prog);
        case 'V': return ff_print_version(prog);
        default: return ff_bad_option(prog, c, argv);
        }
    }
    if (argc - optind > 1)
        return ff_usage_error(prog, "'%s': one stream at most", argv[optind + 1]);
    if (optind < argc)
        in_path = argv[optind];
    if (!list && !text && ff_option_binary_output(prog, out_path, "--text"))
        return 2;
    if (!(in = ff_infile_open(in_path, &err)))
        goto failed_early;
    ff_reader_init(&reader, in, in_path);
    reader.max_cells = max_cells;
    if (ff_outfile_open(&out, out_path, &err) != FF_OK)
        goto failed_early;
    if (list) {
        if (ff_field_list(&reader, out.f, &err) != FF_OK) {
            if (!err.file[0])
                snprintf(err.file, sizeof err.file, "%s", out_path ? out_path : "-");
            goto failed_read;
        }
        goto done;
    }
    /* Each field of a multi-field stream in turn. */
    while ((st = ff_field_read(&reader, &field, &err)) == FF_OK) {
        nfields++;
        if (add_directions(&field, in_path, &err) != FF_OK)
            goto failed;
        ff_field_update_derived_ids(&field);
        if (ff_field_write(out.f, &field, text, &err) != FF_OK) {
            snprintf(err.file, sizeof err.file, "%s", out_path ? out_path : "-");
            goto failed;
        }
        ff_field_free(&field);
    }
    if (st != FF_ENOTFOUND)
        goto failed_read;
    if (nfields == 0) {
        ff_error_set(&err, FF_EINPUT, in_path, 0, 0, "empty input: no ff stream");
        goto failed_read;
    }
done:
    ff_infile_close(in);
    in = NULL;
    if (ff_outfile_commit(&out, &err) != FF_OK)
        goto failed_early;
    return 0;
failed:
    ff_field_free(&field);
failed_read:
    ff_outfile_abort(&out);
failed_early:
    ff_infile_close(in);
    ff_error_print(stderr, prog, &err);
    return ff_exit_status(err.status);
}
