# impl.mk: how an implementation folder (NIST LWC layout) is named, found and compiled, for the host and the firmware builds alike.

# Every implementation folder target/crypto/<alg>/<impl> (NIST LWC API).
ALL_IMPLS ?= $(patsubst target/crypto/%/,%,$(sort $(dir $(wildcard target/crypto/*/*/api.h))))
# An implementation is "alg/impl" (bundled: target/crypto/alg/impl) or
# "alg/impl=DIR" (an external folder in the NIST LWC layout).
impl_id = $(firstword $(subst =, ,$(1)))
impl_dir = $(or $(word 2,$(subst =, ,$(1))),target/crypto/$(1))
impl_sym = $(subst .,_,$(subst +,_,$(subst -,_,$(subst /,_,$(1)))))
impl_srcs = $(wildcard $(call impl_dir,$(1))/*.c)
# Every source of a folder: C, C++ (.cpp), and assembly both preprocessed
# (.S) and plain (.s), as the NIST LWC trees have them.
impl_all_srcs = $(wildcard $(addprefix $(1)/*.,c cpp S s))
# A folder with the NIST benchmarking framework's glue (lwc_crypto_aead.c or
# lwc_crypto_hash.c, or .cpp) is entered as that framework enters it: through
# the function pointers of its lwc_aead_cipher / lwc_hash_ctx (target/glue.c,
# HIL_LWC_AEAD / HIL_LWC_HASH), which may name functions other than
# crypto_aead_*; both structures are renamed per implementation like the API.
# Assembly in a folder (no host build of it is possible).
impl_asm = $(wildcard $(1)/*.S $(1)/*.s)
impl_defs = -Dcrypto_aead_encrypt=$(call impl_sym,$(1))_aead_encrypt \
	-Dcrypto_aead_decrypt=$(call impl_sym,$(1))_aead_decrypt \
	-Dcrypto_hash=$(call impl_sym,$(1))_hash \
	-Dcrypto_xof=$(call impl_sym,$(1))_xof \
	-Dcrypto_block_keysetup=$(call impl_sym,$(1))_block_keysetup \
	-Dcrypto_block_ecb_encrypt=$(call impl_sym,$(1))_block_ecb_encrypt \
	-Dlwc_aead_cipher=$(call impl_sym,$(1))_lwc_aead_cipher \
	-Dlwc_hash_ctx=$(call impl_sym,$(1))_lwc_hash_ctx \
	$(if $(wildcard $(2)/lwc_crypto_aead.c $(2)/lwc_crypto_aead.cpp),-DHIL_LWC_AEAD) \
	$(if $(wildcard $(2)/lwc_crypto_hash.c $(2)/lwc_crypto_hash.cpp),-DHIL_LWC_HASH) \
	-DHIL_ALG_SYM=$(call impl_sym,$(1)) \
	-DHIL_ALG_NAME='"$(firstword $(subst /, ,$(1)))"' \
	-DHIL_ALG_IMPL='"$(lastword $(subst /, ,$(1)))"' \
	-I$(2) $(if $(wildcard $(2).nocase),-I$(2).nocase) -Itarget/framework

