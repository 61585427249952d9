/* runner_target: brings the target up (build, start or flash, connect, identify), takes it down, and brings it back after a hang or a lost link (the recovery ladder). */
#define HIL_LOG_PREFIX "runner"
#include "runner_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/flasher/flasher.h"
#include "lab/boards.h"
#include "energy.h"
#include "util/err.h"
#include "drivers/link/link.h"
#include "util/log.h"
#include "result/result.h"
#include "session/session.h"
#include "util/util.h"

#define HANDSHAKE_MS 10000u

int hil_runner_identify(const struct hil_run *run)
{
	char reported[2 * HILP_BUILD_ID_MAX + 1];

	hil_hex_encode(run->info.build_id, run->info.build_id_len, reported);
	if (strcmp(reported, run->build_id) != 0) {
		hil_err("the target runs build-id %s but hilrun built %s (%s): refusing to measure a different image",
			reported[0] ? reported : "(none)", run->build_id,
			run->fw.elf);
		return HIL_ERR_MISMATCH;
	}
	if (run->info.protocol != HILP_PROTOCOL_VERSION) {
		hil_err("the stub speaks protocol %u, hilrun %u: rebuild the firmware from this tree and flash it",
			run->info.protocol, HILP_PROTOCOL_VERSION);
		return HIL_ERR_MISMATCH;
	}
	/* 12 hex digits of the build-id: the line fits 120 columns, and
	 * report.json has all 40. */
	hil_info("target: %s, build-id %.12s, %s, overhead %u", run->info.board,
		 reported, hil_unit_name(run->info.counter_unit),
		 (unsigned)run->info.overhead);
	return HIL_OK;
}

/*
 * Open the link of cfg to the target the flasher started, on what the link
 * driver says it needs: a serial port by its name, QEMU's USART socket by
 * the path the flasher gives, or a link the flasher made (semihosting on
 * QEMU's stdio) on its descriptor.
 */
int hil_rn_open_link(const struct hil_config *cfg, struct hil_flasher *fl,
		     struct hil_link **out)
{
	int fd;

	switch (hil_link_needs(cfg->link.type)) {
	case HIL_LINK_NEEDS_PORT:
		return hil_link_open(out, cfg->link.type, cfg->link.port,
				     cfg->link.baud);
	case HIL_LINK_NEEDS_SEMIHOSTING:
		fd = hil_flasher_link_fd(fl);
		if (fd >= 0) {
			return hil_link_adopt(out, cfg->link.type, fd,
					      hil_flasher_link_where(fl));
		}
		if (fd != HIL_ERR_NA) {
			return fd;
		}
		/* No descriptor: opening it by name says why that fails. */
		/* fall through */
	default: /* a socket path the flasher gives */
		return hil_link_open(out, cfg->link.type,
				     hil_flasher_link_where(fl), 0);
	}
}

/*
 * The recovery ladder after a row that hung, crashed the target or lost the
 * link (the session already resynchronised and retried): reset the target
 * (OpenOCD "reset run"), or where that is not available or does not help,
 * program and start the image again (for QEMU: a new emulator), reconnect,
 * and check it is the same image. Each step is bounded by the flasher's and
 * the link's timeouts and counted in the report.
 */
/* A session's counters into the run's, before the session is closed. */
static void add_session_stats(struct hil_run *run,
			      const struct hil_session *session)
{
	const struct hil_session_stats *st = hil_session_get_stats(session);
	size_t i;

	run->retries += st->retries;
	run->requests += st->requests;
	for (i = 0; i < HIL_SESSION_CMD_SLOTS; i++) {
		run->requests_by_cmd[i] += st->by_cmd[i];
	}
	run->bytes_tx += st->bytes_tx;
	run->bytes_rx += st->bytes_rx;
	run->bad_frames += st->bad_frames;
	run->timeouts += st->timeouts;
	run->timing.call_ns += st->call_ns;
	run->timing.wait_ns += st->wait_ns;
	run->timing.bench_timeouts += st->long_timeouts;
	run->timing.bench_timeout_ns += st->long_timeout_ns;
}

static int recover_steps(struct rn_target *t, struct hil_run *run,
			 const struct hil_runner_opts *opts);

/* The session's probe: a wait that ran out in silence asks whether the
 * board can answer at all (a stopped or dead emulator cannot). */
static int board_alive(void *arg)
{
	return hil_flasher_check(arg);
}

/* A new session on conn's link: the run's timeouts, stop flag and probe. */
static int session_open(const struct hil_config *cfg,
			const struct hil_runner_opts *opts,
			struct hil_target_conn *conn)
{
	int ret = hil_session_open(&conn->session, conn->link,
				   cfg->link.timeout_ms, cfg->link.retries);

	if (ret != HIL_OK) {
		return ret;
	}
	/* SIGTERM ends a wait for a reply at once (docs/lab.md). */
	hil_session_set_stop(conn->session, opts->stop);
	if (conn->flasher != NULL) {
		hil_session_set_probe(conn->session, board_alive,
				      conn->flasher);
	}
	return HIL_OK;
}

int hil_rn_recover(struct rn_target *t, struct hil_run *run,
		   const struct hil_runner_opts *opts)
{
	uint64_t t0;
	int ret;

	/* A stop (a CI engine cancelling the job, systemctl stop) may have
	 * killed the emulator with us: do not start it again. */
	if (hil_rn_stopping(opts)) {
		hil_info("stopping: no recovery attempted");
		return HIL_ERR_INTERRUPTED;
	}
	t0 = hil_energy_now_ns();
	ret = recover_steps(t, run, opts);
	run->timing.start_ns += hil_energy_now_ns() - t0;
	if (ret != HIL_OK && hil_err_transient(ret)) {
		run->transient = 1; /* a dead link or board */
	}
	return ret;
}

static int recover_steps(struct rn_target *t, struct hil_run *run,
			 const struct hil_runner_opts *opts)
{
	const struct hil_config *cfg = run->cfg;
	struct hilp_info info;
	int step;
	int ret = HIL_ERR_TIMEOUT;

	for (step = 0; step < 2; step++) {
		if (t->conn.session != NULL) {
			add_session_stats(run, t->conn.session);
			hil_session_close(t->conn.session);
			t->conn.session = NULL;
		}
		hil_link_close(t->conn.link);
		t->conn.link = NULL;
		if (step == 0) {
			ret = hil_flasher_reset(t->conn.flasher);
			if (ret == HIL_ERR_NA) {
				continue; /* no reset without reflashing */
			}
			run->resets++;
			hil_warn("recovery: target reset");
		} else {
			run->reflashes++;
			hil_warn("recovery: programming and starting %s again",
				 run->fw.elf);
			ret = hil_flasher_start(t->conn.flasher, run->fw.elf);
		}
		if (ret != HIL_OK) {
			continue;
		}
		ret = hil_rn_open_link(cfg, t->conn.flasher, &t->conn.link);
		if (ret == HIL_OK && opts->faults != NULL) {
			ret = hil_link_wrap_flaky(&t->conn.link, t->conn.link,
						  opts->faults);
			if (ret != HIL_OK) {
				t->conn.link = NULL;
			}
		}
		if (ret == HIL_OK) {
			ret = session_open(cfg, opts, &t->conn);
		}
		if (ret == HIL_OK) {
			ret = hil_session_handshake(t->conn.session,
						    HANDSHAKE_MS, &info);
		}
		if (ret == HIL_OK) {
			char id[2 * HILP_BUILD_ID_MAX + 1];

			hil_hex_encode(info.build_id, info.build_id_len, id);
			if (strcmp(id, run->build_id) != 0) {
				hil_err("recovery: the target came back with build-id %s, not %s",
					id, run->build_id);
				return HIL_ERR_MISMATCH;
			}
			hil_info("recovery: the target answers again");
			return HIL_OK;
		}
	}
	hil_err("recovery failed: the target does not answer after a reset and a restart (%s)",
		hil_strerror(ret));
	return ret;
}

/*
 * Whether the row just measured failed for reasons that may not be its own:
 * the link was lost (HIL_ERR_IO: the emulator was killed, a cable pulled),
 * or it failed on a link that has damaged frames (CRC-16 lets about one
 * damaged frame in 65536 through, a damaged request can make the target run
 * something else, and nine damaged attempts in a row end in a timeout).
 * Such a row is measured again, once. A hang or a fault on a clean link is
 * the row's own.
 */
/*
 * Whether a failure means the board, not the work, was lost: the link
 * closed (HIL_ERR_IO), or no answer from an emulator that is dead or
 * frozen (SIGSTOP): both are restarted, and what they were doing is done
 * again.
 */
int hil_rn_board_lost(const struct rn_target *t, int ret)
{
	if (ret == HIL_ERR_IO) {
		return 1;
	}
	return ret == HIL_ERR_TIMEOUT && t->conn.flasher != NULL &&
	       hil_flasher_check(t->conn.flasher) == HIL_ERR_PROCESS;
}

int hil_rn_worth_again(const struct rn_target *t, const struct hil_run *run,
		       int ret)
{

	if (hil_rn_board_lost(t, ret)) {
		return 1;
	}
	if (run->n_rows == 0 || run->rows[run->n_rows - 1].ok) {
		return 0;
	}
	if (ret == HIL_ERR_TIMEOUT && t->loss.last_link) {
		return 1; /* hil_rn_note_loss: the target answered, damaged */
	}
	return (ret == HIL_OK || ret == HIL_ERR_TARGET ||
		ret == HIL_ERR_PROTO || ret == HIL_ERR_TIMEOUT) &&
	       t->conn.session != NULL && hil_session_damaged(t->conn.session);
}

int hil_rn_note_loss(struct rn_target *t, const struct hil_run *run, int ret)
{
	const struct hil_session_call_end *e;
	const struct hil_session_stats *st;

	t->loss.last_link = 0;
	if (ret != HIL_ERR_TIMEOUT || t->conn.session == NULL) {
		return 0;
	}
	e = hil_session_last_call(t->conn.session);
	if (e->board_down || !hil_session_last_call_heard(t->conn.session)) {
		return 0; /* silence: a hung target, or a stopped board */
	}
	st = hil_session_get_stats(t->conn.session);
	t->loss.calls++;
	t->loss.damaged += e->damaged;
	t->loss.late += e->late;
	t->loss.silent += e->silent;
	t->loss.bad_frames = run->bad_frames + st->bad_frames;
	t->loss.retries = run->retries + st->retries;
	t->loss.last_link = 1;
	return 1;
}

void hil_rn_mark_link_failed(const struct link_loss *l, struct hil_run *run,
			     struct hil_row *row, const char *during)
{

	row->link_failed = 1;
	row->ok = 0;
	snprintf(
		row->error, sizeof(row->error),
		"lost to the link %s, not the implementation's failure: %u call%s failed after every attempt, each followed by the recovery ladder, although the target answered (%u answers damaged, %u attempts heard bytes but no reply, %u silent); the run so far: %u bad frames, %u retries",
		during, l->calls, l->calls == 1 ? "" : "s", l->damaged, l->late,
		l->silent, l->bad_frames, l->retries);
	/* Another try may well measure it: exit status 5, run partial. */
	run->transient = 1;
	hil_err("%s/%s %s %u bytes: %s", row->algorithm, row->implementation,
		row->operation, (unsigned)row->msg_len, row->error);
}

/*
 * Before measuring the last row again: bring the target back if the link
 * was lost, and forget the failed attempt. It stays in the journal as
 * failed, which --resume skips.
 */
int hil_rn_prepare_again(struct rn_target *t, struct hil_run *run,
			 const struct hil_runner_opts *opts, int ret)
{
	struct hil_row *row = &run->rows[run->n_rows - 1];

	if (hil_rn_board_lost(t, ret)) {
		hil_warn(
			"recovery: the link was lost during a row: measuring it again");
	} else {
		hil_warn(
			"%s/%s %s %u bytes failed on a link that damages frames: measuring it again",
			row->algorithm, row->implementation, row->operation,
			(unsigned)row->msg_len);
	}
	if (ret == HIL_ERR_IO || ret == HIL_ERR_TIMEOUT) {
		ret = hil_rn_recover(t, run, opts);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	free(row->samples);
	run->n_rows--;
	return HIL_OK;
}

/*
 * After flashing: is this the board the hardware map (hil_boards_path(),
 * as for locks) says is on this probe or port?
 */
static int check_board_uid(const struct hil_config *cfg,
			   const struct hil_run *run)
{
	struct hil_boards map;
	char uid[2 * HILP_UID_LEN + 1];
	char msg[512];
	int ret;

	if (access(hil_boards_path(), R_OK) != 0 ||
	    hil_boards_load(hil_boards_path(), &map, msg, sizeof(msg)) !=
		    HIL_OK) {
		return HIL_OK; /* no map: the lock names the board instead */
	}
	hil_hex_encode(run->info.uid, HILP_UID_LEN, uid);
	ret = hil_boards_check_uid(hil_boards_match(&map, cfg), uid, msg,
				   sizeof(msg));
	if (ret != HIL_OK) {
		hil_err("%s", msg);
	}
	hil_boards_free(&map);
	return ret;
}

static int bring_up_steps(const struct hil_config *cfg,
			  const struct hil_runner_opts *opts,
			  struct hil_run *run, struct hil_target_conn *conn,
			  unsigned build_flags, int *at_board);

/* hil_runner_bring_up() with hil_build_firmware_ex() flags. */
int hil_rn_bring_up(const struct hil_config *cfg,
		    const struct hil_runner_opts *opts, struct hil_run *run,
		    struct hil_target_conn *conn, unsigned build_flags)
{
	int at_board = 0;
	int ret = bring_up_steps(cfg, opts, run, conn, build_flags, &at_board);

	/* A build that fails fails again; a probe that is not there, a
	 * flash that failed or a board that did not answer may not. */
	if (ret != HIL_OK && at_board && hil_err_transient(ret)) {
		run->transient = 1;
	}
	return ret;
}

int hil_runner_bring_up(const struct hil_config *cfg,
			const struct hil_runner_opts *opts, struct hil_run *run,
			struct hil_target_conn *conn)
{
	return hil_rn_bring_up(cfg, opts, run, conn, 0);
}

static int bring_up_steps(const struct hil_config *cfg,
			  const struct hil_runner_opts *opts,
			  struct hil_run *run, struct hil_target_conn *conn,
			  unsigned build_flags, int *at_board)
{
	struct hil_flasher_params fp;
	char root[HIL_PATH];
	char path[HIL_PATH + 32];
	uint64_t t0;
	int ret;

	memset(conn, 0, sizeof(*conn));
	ret = hil_build_find_root(root, sizeof(root));
	if (ret != HIL_OK) {
		return ret;
	}
	hil_rn_git_provenance(root, run);
	snprintf(path, sizeof(path), "%s/build.log", run->dir);
	t0 = hil_energy_now_ns();
	if (opts->no_jail) {
		build_flags |= HIL_BUILD_NO_JAIL;
	}
	ret = hil_build_firmware_ex(cfg, root, path, opts->algs_override,
				    build_flags, opts->stop, &run->fw);
	run->timing.build_ns += hil_energy_now_ns() - t0;
	t0 = hil_energy_now_ns();
	if (ret == HIL_OK) {
		ret = hil_rn_image_info(run);
	}
	if (ret != HIL_OK) {
		return ret;
	}
	/* The probe is chosen by serial: never flash whichever board
	 * the tool happens to find first. */
	ret = hil_flasher_params_from_config(cfg, run->dir, &fp);
	hil_rn_model_plugin(cfg, root, run);
	if (ret == HIL_OK && run->model.enabled) {
		ret = hil_flasher_params_add(&fp, HIL_FLASHER_OPT_PLUGIN,
					     run->model.plugin_arg);
	}
	if (ret != HIL_OK) {
		return ret;
	}
	fp.link = cfg->link.type; /* what the stub was built for */
	fp.jail = !opts->no_jail;
	ret = hil_flasher_open(&conn->flasher, cfg->flasher.type, &fp);
	if (ret != HIL_OK) {
		return ret;
	}
	*at_board = 1; /* from here on the board, its probe or its link */
	ret = hil_flasher_start(conn->flasher, run->fw.elf);
	if (ret != HIL_OK) {
		return ret;
	}
	/* Asked only once the tool is known to run: a missing one is
	 * reported once, by start. */
	hil_flasher_version(conn->flasher, run->flasher_version,
			    sizeof(run->flasher_version));
	ret = hil_rn_open_link(cfg, conn->flasher, &conn->link);
	if (ret != HIL_OK) {
		return ret;
	}
	if (opts->faults != NULL) {
		ret = hil_link_wrap_flaky(&conn->link, conn->link,
					  opts->faults);
		if (ret != HIL_OK) {
			conn->link = NULL; /* the wrapper closed it */
			return ret;
		}
	}
	ret = session_open(cfg, opts, conn);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = hil_session_handshake(conn->session, HANDSHAKE_MS, &run->info);
	run->timing.start_ns += hil_energy_now_ns() - t0;
	if (ret != HIL_OK) {
		return ret;
	}
	*at_board = 0; /* the wrong image or board is not worth a retry */
	ret = hil_runner_identify(run);
	if (ret != HIL_OK) {
		return ret;
	}
	return check_board_uid(cfg, run);
}

void hil_runner_take_down(struct hil_target_conn *conn, struct hil_run *run)
{
	if (conn->session != NULL) {
		add_session_stats(run, conn->session);
		hil_session_close(conn->session);
		conn->session = NULL;
	}
	hil_link_close(conn->link);
	conn->link = NULL;
	if (conn->flasher != NULL) {
		hil_flasher_close(conn->flasher); /* stops QEMU */
		conn->flasher = NULL;
	}
}
