# Make rules every native module shares (softverbs/, verbs-binding/, tracer/): a module's Makefile sets what it builds
# and includes this file first. Run from the module's folder (Maven calls `make -C MODULE all|test`).
# Output goes into the module's target/classes, so the libraries ship inside its jar at the same
# class-path resources (io/rdmatrace/native/linux-x86_64/...) wherever they are built.
BUILD_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
JAVA_HOME ?= $(shell dirname $$(dirname $$(readlink -f $$(which javac))))
PLATFORM  := linux-x86_64
OUT       := target/classes/io/rdmatrace/native/$(PLATFORM)
OBJ       := target/native-obj
HDR_DIR   := target/ibverbs-headers
VERBS_INC := $(shell sh $(BUILD_DIR)/find-verbs-headers.sh $(abspath $(HDR_DIR)) || echo FAIL)

ifeq ($(VERBS_INC),FAIL)
$(error libibverbs headers not found; install the package libibverbs-dev)
endif

CC       ?= gcc
CFLAGS   := -std=c11 -D_GNU_SOURCE -O2 -g -fPIC -Wall -Wextra -Wno-unused-parameter $(VERBS_INC)
# -z,defs: an inline helper from verbs.h that needs an exported ibv_* symbol fails here, not in the JVM
LDFLAGS  := -shared -Wl,-z,defs

# verbs_abi.h: ibv_qp_attr's slot lists with their members and the MTU table, generated from verbs-abi's
# QpField and IbvEnum (Maven builds verbs-abi before every native module), so C restates none of them.
ABI_GEN     := target/abi-gen
ABI_HDR     := $(ABI_GEN)/verbs_abi.h
ABI_CLASSES := $(BUILD_DIR)/../verbs-abi/target/classes
ABI_MODEL   := $(addprefix $(ABI_CLASSES)/io/rdmatrace/abi/,QpField.class TraceAttr.class IbvEnum.class gen/AbiSources.class)

$(ABI_HDR): $(ABI_MODEL)
	$(JAVA_HOME)/bin/java -cp $(ABI_CLASSES) io.rdmatrace.abi.gen.AbiSources c-header $@

$(ABI_CLASSES)/%.class:
	$(error $@ is missing: build verbs-abi first (mvn -pl <module> -am compile))

# The record format the JNI binding and the tracer both write (slot layouts, their codec, the ring
# payload blocks, the clock): verbs-abi's, below both, so neither includes the other's headers. Each
# library links its own copy of the objects it needs, their symbols hidden.
REC_DIR  := $(BUILD_DIR)/../verbs-abi/src/main/c/record
REC_SRC  := $(wildcard $(REC_DIR)/*.c)
REC_OBJ  := $(patsubst $(REC_DIR)/%.c,$(OBJ)/record/%.o,$(REC_SRC))
REC_HDR  := $(wildcard $(REC_DIR)/*.h) $(ABI_HDR)
REC_INC  := -I$(REC_DIR) -I$(ABI_GEN)

$(OBJ)/record/%.o: $(REC_DIR)/%.c $(REC_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fvisibility=hidden $(REC_INC) -c $< -o $@

# Runs the test programs given two at a time (each test picks its own addresses and ports), then
# prints each one's output whole, in the order given, and fails naming every test that failed.
define run_tests
	@printf '%s\n' $(1) | xargs -P 2 -n 1 sh -c '"$$0" > "$$0.out" 2>&1; echo $$? > "$$0.rc"'; \
	failed=; for t in $(1); do echo "== $$t"; cat "$$t.out"; [ "$$(cat "$$t.rc")" = 0 ] || failed="$$failed $$t"; done; \
	if [ -n "$$failed" ]; then echo "failed:$$failed"; exit 1; fi
endef
