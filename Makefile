# Makefile -- sets everything up on a fresh machine (`make`), runs the tests
# (`make test`) and the main job (`make demo`).

CC      ?= cc
CFLAGS  ?= -std=gnu11 -O2 -g -Wall -Wextra
PYTHON  ?= python3
VENV    := .venv
BUILD   := build
BACKENDS := rip ucontext threads
EXAMPLES := pingpong

RT       := runtime/src
RT_INC   := -Iruntime/include -I$(RT)/core -I$(RT)/rip
CORE_SRC := $(wildcard $(RT)/core/*.c)
rt_objs   = $(patsubst $(RT)/%.c,$(BUILD)/obj/%.o,$(CORE_SRC) $(wildcard $(RT)/$(1)/*.c))
RT_HDRS  := runtime/include/rip.h $(wildcard $(RT)/*/*.h)

.PHONY: all venv runtime examples test demo clean
all: venv runtime examples

venv: $(VENV)/.installed
$(VENV)/.installed: setup.py
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e . pytest
	touch $@

runtime: $(foreach b,$(BACKENDS),$(BUILD)/lib/librip-$(b).a)

$(BUILD)/obj/threads/%.o: $(RT)/threads/%.c $(RT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -pthread -Iruntime/include -c $< -o $@

$(BUILD)/obj/%.o: $(RT)/%.c $(RT_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(RT_INC) -c $< -o $@

$(BUILD)/lib/librip-rip.a: $(call rt_objs,rip)
$(BUILD)/lib/librip-ucontext.a: $(call rt_objs,ucontext)
$(BUILD)/lib/librip-threads.a: $(patsubst $(RT)/%.c,$(BUILD)/obj/%.o,$(wildcard $(RT)/threads/*.c))
$(BUILD)/lib/%.a:
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

examples: $(foreach e,$(EXAMPLES),$(foreach b,$(BACKENDS),$(BUILD)/$(e)-$(b)))

RIPPER_SRC := $(wildcard ripper/*.py)
LIBS := $(foreach b,$(BACKENDS),$(BUILD)/lib/librip-$(b).a)

# One recipe builds all three (a grouped pattern rule).
$(BUILD)/%-rip $(BUILD)/%-ucontext $(BUILD)/%-threads: examples/%.c $(LIBS) $(VENV)/.installed $(RIPPER_SRC)
	$(VENV)/bin/ripcc --backend=rip $(CFLAGS) $< -o $(BUILD)/$*-rip
	$(VENV)/bin/ripcc --backend=ucontext $(CFLAGS) $< -o $(BUILD)/$*-ucontext
	$(VENV)/bin/ripcc --backend=threads $(CFLAGS) $< -o $(BUILD)/$*-threads

test: all
	$(VENV)/bin/python -m pytest -q tests

demo: all
	@$(VENV)/bin/python bench/demo.py $(BUILD)

clean:
	rm -rf $(BUILD)
