/* qemu_api: our own declarations of the few QEMU TCG plugin API (version 1, QEMU 7.2) names the cycle model uses; no Debian package ships qemu-plugin.h. */
#ifndef EMU_QEMU_API_H
#define EMU_QEMU_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Written from the API documentation of QEMU 7.2 (docs/devel/tcg-plugins
 * and the kernel-doc of include/qemu/qemu-plugin.h). QEMU resolves these
 * functions in its own executable when it dlopen()s the plugin, so the
 * plugin is linked without them (-shared, undefined symbols allowed).
 * Only what is declared here is used; the layouts and enum values must be
 * those of API version 1:
 * - the plugin exports `int qemu_plugin_version` (1) and
 *   `qemu_plugin_install`; QEMU refuses a plugin without either;
 * - qemu_info_t begins with the target name, then {min, cur} API versions,
 *   then a bool for system emulation;
 * - memory callbacks are asked for with QEMU_PLUGIN_MEM_R = 1,
 *   _W = 2, _RW = 3; callback flags start at QEMU_PLUGIN_CB_NO_REGS = 0.
 */

#define EMU_EXPORT __attribute__((visibility("default")))

#define EMU_QEMU_PLUGIN_VERSION 1

typedef uint64_t qemu_plugin_id_t;

typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

/* What the plugin exports; QEMU looks both up with dlsym(). */
extern EMU_EXPORT int qemu_plugin_version;
EMU_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
				   int argc, char **argv);

struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef uint32_t qemu_plugin_meminfo_t;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS = 0,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index,
					  qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw,
				      void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *
qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
void qemu_plugin_outs(const char *string);

#endif /* EMU_QEMU_API_H */
