/* svg_sizes: sizes.svg, flash and RAM (static data + peak stack) per implementation. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

struct impl_sizes {
	/* while collecting: the names, in sizes[] or the decoded rows */
	const char *algorithm;
	const char *implementation;
	double v[3]; /* flash, RAM, stack */
	int have[3];
	/* The whole image it was measured in, when the run had several
	 * (images[]: a pq run's one per scheme) */
	double img_flash, img_ram;
	int have_img;
	char name[200];
};

/* Does the space-separated list hold word? */
static int list_has(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p != NULL && (p = strstr(p, word)) != NULL) {
		if ((p == list || p[-1] == ' ') &&
		    (p[n] == '\0' || p[n] == ' ')) {
			return 1;
		}
		p += n;
	}
	return 0;
}

/* im's own image among images[] (more than one: else "image" is the
 * whole run's). */
static void image_of(const cJSON *report, struct impl_sizes *im)
{
	const cJSON *all = cJSON_GetObjectItemCaseSensitive(report, "images");
	const cJSON *e;

	if (!cJSON_IsArray(all) || cJSON_GetArraySize(all) < 2) {
		return;
	}
	cJSON_ArrayForEach(e, all)
	{
		const char *algs = hil_rj_str(e, "algorithms");

		if (algs != NULL && list_has(algs, im->name) &&
		    hil_rj_num(e, "flash_bytes", &im->img_flash)) {
			if (!hil_rj_num(e, "ram_static_bytes", &im->img_ram)) {
				im->img_ram = 0;
			}
			im->have_img = 1;
			return;
		}
	}
}

static int impls_collect(const cJSON *report, struct impl_sizes **out,
			 size_t *nout)
{
	const cJSON *sizes = cJSON_GetObjectItemCaseSensitive(report, "sizes");
	struct hil_row_view *rows = NULL;
	const cJSON *e;
	size_t cap, n = 0, i, j, nrows = 0;
	struct impl_sizes *im;

	/* The rows through result/'s codec, decoded once. */
	if (hil_row_views_read(hil_rj_rows(report), &rows, &nrows) != HIL_OK) {
		return HIL_ERR_NOMEM;
	}
	cap = nrows + 1;
	if (cJSON_IsArray(sizes)) {
		cap += (size_t)cJSON_GetArraySize(sizes);
	}
	im = calloc(cap, sizeof(*im));
	if (im == NULL) {
		free(rows);
		return HIL_ERR_NOMEM;
	}
	/* Implementations from sizes[] first, then any only seen in rows. */
	if (cJSON_IsArray(sizes)) {
		cJSON_ArrayForEach(e, sizes)
		{
			im[n].algorithm = hil_rj_str(e, "algorithm");
			im[n].implementation = hil_rj_str(e, "implementation");
			n++;
		}
	}
	for (j = 0; j < nrows; j++) {
		const char *a = rows[j].algorithm;
		const char *b = rows[j].implementation;

		for (i = 0; i < n; i++) {
			if (strcmp(im[i].algorithm, a) == 0 &&
			    strcmp(im[i].implementation, b) == 0) {
				break;
			}
		}
		if (i == n) {
			im[n].algorithm = a;
			im[n].implementation = b;
			n++;
		}
	}
	for (i = 0; i < n; i++) {
		const cJSON *z = hil_rj_impl_size(report, im[i].algorithm,
						  im[i].implementation);

		snprintf(im[i].name, sizeof(im[i].name), "%s/%s",
			 im[i].algorithm, im[i].implementation);
		im[i].have[0] = hil_rj_num(z, "flash_bytes", &im[i].v[0]);
		im[i].have[1] = hil_rj_num(z, "ram_bytes", &im[i].v[1]);
		im[i].have[2] =
			hil_rv_stack(rows, nrows, im[i].algorithm,
				     im[i].implementation, NULL, &im[i].v[2]);
		image_of(report, &im[i]);
	}
	/* The names may point into the rows: name[] is what is kept. */
	for (i = 0; i < n; i++) {
		im[i].algorithm = NULL;
		im[i].implementation = NULL;
	}
	free(rows);
	*out = im;
	*nout = n;
	return HIL_OK;
}

int hil_svg_sizes(const cJSON *report, FILE *out)
{
	static const char *const fill[] = {"#4e79a7", "#59a14f", "#f28e2b"};
	const double pw = 300, gap = 60, rowh = 22, top = 100, bar_room = 230;
	struct impl_sizes *im = NULL;
	double label_w = 120, w, h, flash, ram, stack;
	char sub[400];
	size_t n = 0, i;
	int p, ret, per_image = 0;

	ret = impls_collect(report, &im, &n);
	if (ret != HIL_OK) {
		return ret;
	}
	for (i = 0; i < n; i++) {
		if (hil_render_text_w(im[i].name, 12) + 20 > label_w) {
			label_w = hil_render_text_w(im[i].name, 12) + 20;
		}
	}
	w = label_w + 2 * pw + gap + 90;
	h = top + rowh * (double)(n ? n : 1) + 46;
	for (i = 0; i < n; i++) {
		per_image |= im[i].have_img;
	}
	if (per_image) {
		/* Several images (a pq run: one per scheme): each row's own,
		 * never the last one's as if it were the run's. */
		snprintf(
			sub, sizeof(sub), "%s",
			"own code and data of each implementation (linker map); stack: largest peak of one call (painting); in brackets, the whole image it ran in (one per scheme)");
	} else if (hil_rj_image(report, &flash, &ram, &stack)) {
		snprintf(
			sub, sizeof(sub),
			"own code and data of each implementation (linker map); stack: largest peak of one call (painting); whole image %.0f B flash, %.0f B RAM",
			flash, ram);
	} else {
		snprintf(
			sub, sizeof(sub), "%s",
			"own code and data of each implementation (linker map); stack: largest peak of one call (painting)");
	}
	hil_render_svg_begin(out, w, h,
			     "Flash and RAM per implementation (bytes)");
	hil_render_svg_title(
		out, 12, "Flash and RAM per implementation (bytes)", sub, w);
	for (i = 0; i < n; i++) {
		hil_render_svg_text(out, label_w - 10,
				    top + rowh * (double)i + 15, "end", 12,
				    "#222222", im[i].name);
	}
	if (n == 0) {
		hil_render_svg_text(out, 12, top + 15, "start", 12, "#aa0000",
				    "no implementations in this report");
	}
	/* Panel 0: flash. Panel 1: RAM = static data + peak stack, stacked. */
	for (p = 0; p < 2; p++) {
		double x0 = label_w + (double)p * (pw + gap), max = 0, step,
		       top_v;
		double base = top + rowh * (double)n;
		int k;

		for (i = 0; i < n; i++) {
			double v = p == 0 ? (im[i].have[0] ? im[i].v[0] : 0)
					  : (im[i].have[1] ? im[i].v[1] : 0) +
						    (im[i].have[2] ? im[i].v[2]
								   : 0);

			if (v > max) {
				max = v;
			}
		}
		step = hil_render_nice_step(max > 0 ? max : 1);
		top_v = max > 0 ? ceil(max / step) * step : 5 * step;
		hil_render_svg_text(
			out, x0, top - 30, "start", 13, "#222222",
			p == 0 ? "Flash (B): code + constant data"
			       : "RAM (B): static data + peak stack");
		if (p == 1) {
			fprintf(out,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
				x0, top - 21, fill[1]);
			hil_render_svg_text(out, x0 + 14, top - 12, "start", 11,
					    "#333333", "static (linker map)");
			fprintf(out,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
				x0 + 130, top - 21, fill[2]);
			hil_render_svg_text(out, x0 + 144, top - 12, "start",
					    11, "#333333",
					    "peak stack (painting)");
		}
		/* The value axis, with ticks, under the bars. */
		for (k = 0; (double)k * step <= top_v * (1 + 1e-9); k++) {
			double x = x0 + (double)k * step / top_v * bar_room;
			char lab[32];

			hil_render_svg_line(out, x, top - 4, x, base, "#eeeeee",
					    1);
			hil_render_svg_line(out, x, base, x, base + 4,
					    "#666666", 1);
			snprintf(lab, sizeof(lab), "%.6g", (double)k * step);
			hil_render_svg_text(out, x, base + 16, "middle", 10,
					    "#333333", lab);
		}
		hil_render_svg_line(out, x0, top - 4, x0, base, "#666666", 1);
		hil_render_svg_line(out, x0, base, x0 + bar_room, base,
				    "#666666", 1);
		hil_render_svg_text(out, x0 + bar_room / 2, base + 32, "middle",
				    11, "#222222", "bytes");
		for (i = 0; i < n; i++) {
			double y = top + rowh * (double)i + 4, x = x0;
			char val[80];
			int part;

			if (p == 0 && !im[i].have[0]) {
				hil_render_svg_text(out, x0 + 4, y + 11,
						    "start", 11, "#888888",
						    "unknown");
				continue;
			}
			if (p == 1 && !im[i].have[1] && !im[i].have[2]) {
				hil_render_svg_text(out, x0 + 4, y + 11,
						    "start", 11, "#888888",
						    "unknown");
				continue;
			}
			for (part = p == 0 ? 0 : 1; part <= (p == 0 ? 0 : 2);
			     part++) {
				double bw = im[i].have[part]
						    ? im[i].v[part] / top_v *
							      bar_room
						    : 0;

				fprintf(out,
					"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" fill=\"%s\"><title>",
					x, y, bw, fill[part]);
				hil_xml_puts(out, im[i].name);
				fprintf(out, ": %s %.0f B</title></rect>\n",
					part == 0   ? "flash"
					: part == 1 ? "static RAM"
						    : "peak stack",
					im[i].v[part]);
				x += bw;
			}
			if (p == 0 && im[i].have_img) {
				snprintf(val, sizeof(val), "%.0f (image %.0f)",
					 im[i].v[0], im[i].img_flash);
			} else if (p == 0) {
				snprintf(val, sizeof(val), "%.0f", im[i].v[0]);
			} else if (!im[i].have[2]) {
				snprintf(val, sizeof(val),
					 "%.0f (stack not measured)",
					 im[i].v[1]);
			} else {
				snprintf(val, sizeof(val), "%.0f (%.0f + %.0f)",
					 im[i].v[1] + im[i].v[2], im[i].v[1],
					 im[i].v[2]);
			}
			if (p == 1 && im[i].have_img) {
				size_t o = strlen(val);

				snprintf(val + o, sizeof(val) - o,
					 " (image %.0f)", im[i].img_ram);
			}
			hil_render_svg_text(out, x + 4, y + 11, "start", 11,
					    "#333333", val);
		}
	}
	hil_render_svg_end(out);
	free(im);
	return hil_render_status(out);
}
