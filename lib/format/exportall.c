/* exportall.c - every field of a stream in one pass; see exportall.h. */
#include "exportall.h"

#include <stdlib.h>
#include <string.h>

#include "chanview.h"
#include "grow.h"
#include "outfile.h"

static const char *const extension[] = { "npy", "csv", "raw" };

/* One file being written: its field's file name (NAME.EXT's NAME). */
typedef struct {
    char stem[72];
    ff_outfile out;
} pending_file;

/* Whether the field called name is exported: every field without names,
 * else one whose name is among them (each name found marked in seen). */
static int wanted(const char *name, const char *const *names, size_t nnames, char *seen)
{
    size_t k;
    int hit = nnames == 0;
    for (k = 0; k < nnames; k++)
        if (strcmp(names[k], name) == 0) {
            seen[k] = 1;
            hit = 1;
        }
    return hit;
}

/* Export f's channel into a new pending file of dir. */
static ff_status export_one(const ff_field *f, size_t index, const char *channel,
                            ff_export_format fmt, const char *dir, pending_file *p,
                            const pending_file *before, size_t nbefore, const char *in_name,
                            ff_error *err)
{
    char names[200], *path;
    ff_channel_view view;
    ff_status st;
    size_t k;

    if (f->name[0])
        snprintf(p->stem, sizeof p->stem, "%s", f->name);
    else
        snprintf(p->stem, sizeof p->stem, "field-%zu", index);
    for (k = 0; k < nbefore; k++)
        if (strcmp(before[k].stem, p->stem) == 0)
            return ff_error_set(err, FF_EINPUT, in_name, 0, 0,
                                "fields %zu and %zu would both be %s/%s.%s: export them by "
                                "--name one at a time", k + 1, index, dir, p->stem,
                                extension[fmt]);
    if (!ff_field_find_channel(f, channel, &view)) {
        ff_field_channel_names(f, names, sizeof names);
        return ff_error_set(err, FF_EINPUT, in_name, 0, 0,
                            "field %zu (%s) has no channel '%.32s' (channels: %s)", index,
                            p->stem, channel, names);
    }
    if (!(path = malloc(strlen(dir) + strlen(p->stem) + 6)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
    sprintf(path, "%s/%s.%s", dir, p->stem, extension[fmt]);
    if ((st = ff_outfile_open(&p->out, path, err)) == FF_OK) {
        if ((st = ff_export_channel(p->out.f, &view, f->grid.w, f->grid.h, fmt, err)) != FF_OK) {
            snprintf(err->file, sizeof err->file, "%s", path);
            ff_outfile_abort(&p->out);
        } else if ((st = ff_outfile_finish(&p->out, err)) != FF_OK) {
            ff_outfile_abort(&p->out);
        }
    }
    free(path);
    return st;
}

ff_status ff_export_all(ff_reader *r, const char *const *names, size_t nnames,
                        const char *channel, ff_export_format fmt, const char *dir,
                        size_t *written, ff_error *err)
{
    pending_file *file = NULL;
    size_t nfiles = 0, cap = 0, index = 0, k;
    char *seen = calloc(nnames ? nnames : 1, 1);
    ff_field f;
    ff_status st;

    *written = 0;
    if (!seen)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
    if ((st = ff_outfile_folder(dir, err)) != FF_OK)
        goto done;
    while ((st = ff_field_read(r, &f, err)) == FF_OK) {
        index++;
        if (wanted(f.name, names, nnames, seen)) {
            pending_file *grown = ff_grow(file, &cap, nfiles + 1, sizeof *file, 8);
            if (!grown) {
                st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
            } else {
                file = grown;
                st = export_one(&f, index, channel, fmt, dir, &file[nfiles], file, nfiles,
                                r->name, err);
            }
            if (st != FF_OK) {
                ff_field_free(&f);
                goto done;
            }
            nfiles++;
        }
        ff_field_free(&f);
    }
    if (st != FF_ENOTFOUND)
        goto done;
    st = FF_OK;
    if (index == 0)
        st = ff_error_set(err, FF_EINPUT, r->name, 0, 0, "empty input: no ff stream");
    for (k = 0; k < nnames && st == FF_OK; k++)
        if (!seen[k])
            st = ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                              "no field named '%.64s' among the stream's %zu (--list names "
                              "them)", names[k], index);
    for (k = 0; k < nfiles && st == FF_OK; k++)
        if ((st = ff_outfile_commit(&file[k].out, err)) == FF_OK)
            ++*written;
done:
    for (k = 0; k < nfiles; k++)
        ff_outfile_abort(&file[k].out);  /* (nothing left of a committed one) */
    free(file);
    free(seen);
    return st;
}
