# The technique checks' mutants (CPU backend, grader/checks/technique_check.cpp): correct kernels without the lab's
# technique, or with a decoy of it, each of which the technique check must fail with the message that names what is
# missing. Their P is right, so only the technique check (SUITES technique) is asked; on a GPU the performance gate
# judges the same kernels (EXPECT none here: the technique suite is the CPU backend's).

# Lab 02: tiles loaded, the multiply-adds read global memory (the naive kernel in a tiled lab's clothes).
tilelab_add_mutant(NAME technique-tiled-multiplies-from-global LAB 02_tiled SUITES technique EXPECT none CPU_EXPECT fail
  FIND "for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile[ty][k] * N_tile[k][tx];"
  REPLACE "for (int k = 0; k < TILE_WIDTH; ++k) sum += M[row * inner + phase * TILE_WIDTH + k] * N[(phase * TILE_WIDTH + k) * cols + col] + 0.0f * M_tile[ty][k];"
  CPU_MATCH "P came out unchanged, as if no element had been replaced")

# Lab 03: the naive sum from global memory laundered through both tiles on its way to P (twice through shared
# memory, so that scaling every shared store scales P by the square, as a product from the tiles would).
tilelab_add_mutant(NAME technique-boundary-sum-laundered LAB 03_tiled_boundary SUITES technique EXPECT none CPU_EXPECT fail
  FIND "        for (int k = 0; k < TILE_WIDTH; ++k) sum += M_tile[ty][k] * N_tile[k][tx];\n        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them\n    }"
  REPLACE "        __syncthreads();  // every thread is done with the tiles before the next phase overwrites them\n    }\n    if (row < rows && col < cols) for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];\n    M_tile[ty][tx] = sum;\n    __syncthreads();  // the sums are in M_tile\n    N_tile[ty][tx] = M_tile[ty][tx];\n    __syncthreads();  // and in N_tile\n    sum = N_tile[ty][tx];"
  CPU_MATCH "P came out unchanged, as if no element had been replaced.*sums stored into the tiles")

# Lab 05: a column of outputs per thread, but the N_tile value read again for each of them (lab 03's two shared
# reads per multiply-add).
tilelab_add_mutant(NAME technique-coarsened-no-register-reuse LAB 05_coarsened SUITES technique EXPECT none CPU_EXPECT fail
  FIND "            const float n_value = N_tile[k][out_col];  // read once, used kOutputs times\n"
  REPLACE ""
  FIND2 "sums[i] += M_tile[out_row + i][k] * n_value;"
  REPLACE2 "sums[i] += M_tile[out_row + i][k] * N_tile[k][out_col];"
  CPU_MATCH "reads shared memory [01][.][0-9]+x less per multiply-add than the model tiled kernel [(]lab 03[)].*Reuse values from registers")

# Lab 06: the micro-tile's products read straight from the tiles, not from the registers the outer product fills.
tilelab_add_mutant(NAME technique-register-no-outer-product LAB 06_register_tiled SUITES technique EXPECT none CPU_EXPECT fail
  FIND "for (int j = 0; j < kMicro; ++j) sums[i][j] += m_values[i] * n_values[j];"
  REPLACE "for (int j = 0; j < kMicro; ++j) sums[i][j] += M_tile[micro_row + i][k] * N_tile[k][micro_col + j] + 0.0f * (m_values[i] + n_values[j]);"
  CPU_MATCH "reads shared memory 0[.][0-9]+x less per multiply-add than the model coarsened kernel [(]lab 05[)].*Reuse values from registers")

# Lab 07: every global load four floats one by one (lab 06's loads), the rest of the lab as the model does it.
tilelab_add_mutant(NAME technique-vectorized-scalar-loads LAB 07_vectorized SUITES technique EXPECT none CPU_EXPECT fail
  FIND "    if (vector && col + 3 < limit) return *reinterpret_cast<const float4*>(row + col);\n"
  REPLACE "    static_cast<void>(vector);\n"
  CPU_MATCH "wherever it was loaded from global memory by a 16-byte load: P came out unchanged")

# Lab 08: each phase's copies waited for as soon as they are issued: nothing in flight while the kernel multiplies.
tilelab_add_mutant(NAME technique-warp-copies-waited-at-once LAB 08_warp_tiled SUITES technique EXPECT none CPU_EXPECT fail
  FIND "            __pipeline_commit();\n\n            // Four k at a time"
  REPLACE "            __pipeline_commit();\n            __pipeline_wait_prior(0);\n\n            // Four k at a time"
  CPU_MATCH "makes [0-9]+% of its shared reads from tiles whose asynchronous copies ran ahead")

# Lab 08, the pipeline check: each phase's copies waited for as soon as they are issued, with one token
# shared-memory read in between, so that each copy was "in flight while its thread read shared memory".
tilelab_add_mutant(NAME pipeline-token-read LAB 08_warp_tiled SUITES pipeline EXPECT none CPU_EXPECT fail
  FIND "            __pipeline_commit();\n\n            // Four k at a time"
  REPLACE "            __pipeline_commit();\n            sums[0][0] += 0.0f * M_tile[s][0][0];\n            __pipeline_wait_prior(0);\n\n            // Four k at a time"
  CPU_MATCH "shared reads were of tiles whose copies ran ahead of the multiply-adds.*a token read")

# The red team's decoys (grader/selftest/technique/<lab>-<idea>/, each file's first comment says what it tries):
# correct kernels made to pass the technique, pipeline or shared-memory check without the lab's technique. Each must
# fail the check it aimed at, saying why.
function(_tilelab_add_technique_decoy name lab expect match)
  if("cpu" IN_LIST TILELAB_BACKENDS)
    tilelab_add_lab(SUBMISSION decoy-${name} ROOT "${CMAKE_CURRENT_SOURCE_DIR}/technique/${name}" LAB ${lab}
                    TILE_WIDTH 16 BACKEND cpu EXPECT ${expect} MATCH "${match}" SUITES ${ARGN} LABELS selftest decoy)
  endif()
endfunction()
set(_wrote "the kernel wrote into [MN], which it may only read")
_tilelab_add_technique_decoy(lab02-detect-switch 02_tiled fail "works differently depending on the values" technique)
_tilelab_add_technique_decoy(lab02-global-launder 02_tiled fail "${_wrote}" technique)
_tilelab_add_technique_decoy(lab02-launder-rescale 02_tiled fail "${_wrote}" technique shared-memory)
_tilelab_add_technique_decoy(lab02-rescale 02_tiled fail "P came out unchanged" technique)
_tilelab_add_technique_decoy(lab02-scratch-launder 02_tiled build-fails "may not declare a variable in device memory" technique)
_tilelab_add_technique_decoy(lab03-launder-rescale 03_tiled_boundary fail "${_wrote}" technique shared-memory)
_tilelab_add_technique_decoy(lab05-detect-switch 05_coarsened fail "works differently depending on the values" technique)
_tilelab_add_technique_decoy(lab05-launder 05_coarsened fail "${_wrote}|may not declare" technique)
_tilelab_add_technique_decoy(lab05-private-slots 05_coarsened fail "do not share their tiles" technique)
_tilelab_add_technique_decoy(lab05-raw-reads 05_coarsened fail "reads shared memory [0-9.]+x less per multiply-add than" technique)
_tilelab_add_technique_decoy(lab05-memcpy-reads 05_coarsened fail "reads shared memory [0-9.]+x less per multiply-add than" technique)
# Round two (a red team that had not read the check): tiles each thread reads back alone, the values shared
# through P (global memory) or shuffles instead; tensor-core operations fed an identity matrix.
set(_unshared "staged into shared memory by another thread [0-9.]+ times on average")
_tilelab_add_technique_decoy(lab02-pscratch 02_tiled fail "${_unshared}" technique)
_tilelab_add_technique_decoy(lab03-pscratch 03_tiled_boundary fail "${_unshared}" technique)
_tilelab_add_technique_decoy(lab03-private 03_tiled_boundary fail "${_unshared}" technique)
_tilelab_add_technique_decoy(lab05-pscratch 05_coarsened fail "${_unshared}" technique)
_tilelab_add_technique_decoy(lab06-pscratch 06_register_tiled fail "${_unshared}" technique)
_tilelab_add_technique_decoy(lab07-pbounce 07_vectorized fail "loaded from global memory by a 16-byte load: P came out unchanged|brings 0% of its operands from global memory by 16-byte loads" technique)
_tilelab_add_technique_decoy(lab08-pscratch 08_warp_tiled fail "${_unshared}" technique)
_tilelab_add_technique_decoy(lab09-identity 09_tensor_cores fail "does 0% of its multiply-adds with tensor-core" technique)
_tilelab_add_technique_decoy(lab10-identity 10_mma_sync fail "does 0% of its multiply-adds with mma.sync" technique)
_tilelab_add_technique_decoy(lab06-detect-switch 06_register_tiled fail "works differently depending on the values" technique)
_tilelab_add_technique_decoy(lab06-launder 06_register_tiled fail "${_wrote}|may not declare" technique)
_tilelab_add_technique_decoy(lab06-private-slots 06_register_tiled fail "do not share their tiles" technique)
_tilelab_add_technique_decoy(lab07-detect-switch 07_vectorized fail "works differently depending on the values" technique)
_tilelab_add_technique_decoy(lab07-launder-vec 07_vectorized fail "${_wrote}|may not declare" technique)
_tilelab_add_technique_decoy(lab08-async-launder 08_warp_tiled fail "${_wrote}|may not declare" technique pipeline)
_tilelab_add_technique_decoy(lab08-token-read 08_warp_tiled fail "copies ran ahead" technique pipeline)
_tilelab_add_technique_decoy(lab08-token-barrier 08_warp_tiled fail "copies ran ahead" technique pipeline)
_tilelab_add_technique_decoy(lab08-token-async 08_warp_tiled fail "copies ran ahead" technique pipeline)
_tilelab_add_technique_decoy(lab09-identity-mma-launder 09_tensor_cores fail "${_wrote}|may not declare" technique)

# Round three (a red team that had not read the rules of round two): reads the counts did not see (16-byte reads
# counted as one, atomics), tiles of negated operands, a probe recognised and its run given the tiles, tensor cores
# whose accumulators are thrown away, private slots read twice, and a wrong kernel right on an absolute grid.
_tilelab_add_technique_decoy(lab05-vec-noreuse 05_coarsened fail "reads shared memory [01][.][0-9]+x less per multiply-add" technique)
_tilelab_add_technique_decoy(lab06-atomic-reads 06_register_tiled fail "reads shared memory [01][.][0-9]+x less per multiply-add" technique)
_tilelab_add_technique_decoy(lab08-atomic-token 08_warp_tiled fail "copies ran ahead" technique pipeline)
_tilelab_add_technique_decoy(lab09-accumulator-taxi 09_tensor_cores fail "P came out unchanged" technique)
_tilelab_add_technique_decoy(lab02-detect-matched 02_tiled fail "works differently depending on the values" technique)
_tilelab_add_technique_decoy(lab07-negated-switch 07_vectorized fail "works differently depending on the values" technique)
_tilelab_add_technique_decoy(lab02-pscratch-reread 02_tiled fail "${_unshared}" technique)
_tilelab_add_technique_decoy(lab05-fixed-point 05_coarsened fail "elements wrong|wrong elements|are wrong" odd-shapes)
# Round four, against round three's rules: values passed through a __shared__ array declared at file scope (which
# the CPU backend cannot follow, refused by the source check), and shuffles standing in for reuse from registers.
set(_file_scope "declare __shared__ memory inside the kernel [(]or a __device__ function[)], not at file scope")
_tilelab_add_technique_decoy(lab05-filescope-shadow 05_coarsened build-fails "${_file_scope}" technique)
_tilelab_add_technique_decoy(lab06-filescope-shadow 06_register_tiled build-fails "${_file_scope}" technique)
_tilelab_add_technique_decoy(lab08-shadow-nooverlap 08_warp_tiled build-fails "${_file_scope}" technique pipeline)
_tilelab_add_technique_decoy(lab05-shfl-broadcast 05_coarsened fail "reads shared memory [01][.][0-9]+x less per multiply-add" technique)
# Round five, against round four's rules: shared memory read through host functions (memmove, a helper without
# __device__: nvcc refuses both, the source check too), a copy into a register by cuda::memcpy_async (its read now
# counted), and one staged float4 shared by all while every operand comes from global memory.
set(_device_calls "host function of the C library on raw memory|a function of the lab's own without __device__")
_tilelab_add_technique_decoy(lab05-memmove-reads 05_coarsened build-fails "${_device_calls}" technique)
_tilelab_add_technique_decoy(lab06-host-helper-reads 06_register_tiled build-fails "${_device_calls}" technique)
_tilelab_add_technique_decoy(lab05-async-to-register 05_coarsened fail "reads shared memory [01][.][0-9]+x less per multiply-add" technique)
_tilelab_add_technique_decoy(lab07-tiny-stage 07_vectorized fail "${_unshared}" technique)
# A kernel wrong only where rows and cols both pass 300: the large draw's flat shape (rows and cols 1.5 to 3 times
# the CPU backend's large side) multiplies one.
_tilelab_add_technique_decoy(lab03-big-shape-bug 03_tiled_boundary fail "elements wrong|never written|P is 0" large)
# One stage, its copies waited for after 256 polls of a shared flag: reads, but of no copied data. Only reads of
# words an asynchronous copy of the block landed count as computing while a copy is in flight.
_tilelab_add_technique_decoy(lab08-spin-poll 08_warp_tiled fail "copies ran ahead" technique pipeline)
# Round six: M's word read by one lane and handed to the warp by __reduce_or_sync, which the counts did not see (a
# shuffle's word was counted, a vote's or a reduction's was not).
_tilelab_add_technique_decoy(lab05-redux-launder 05_coarsened fail "reads shared memory [01][.][0-9]+x less per multiply-add" technique)
# Wrong only on values or depths no check drew: TF32 conversion skipped for elements of 2^25 and more, or past k =
# 4096 (the TF32 steps' elements now span 2^-112 to 2^112, and one of their shapes is 4,357 deep), and a sum kept
# scaled by 2^64, which overflows on products the uniform draw now reaches (rows and columns scaled up to 2^56).
_tilelab_add_technique_decoy(lab09-tf32-huge-skip 09_tensor_cores fail "one float32 step below a TF32 value" input-range)
_tilelab_add_technique_decoy(lab10-tf32-k-range 10_mma_sync fail "one float32 step below a TF32 value" input-range)
_tilelab_add_technique_decoy(lab02-scaled-overflow 02_tiled fail "elements wrong|wrong elements|are wrong" edges)
# The technique only where the small shapes look: the naive kernel once every dimension is 1024 or more (round six),
# or in every block past the first eight (a grid no small shape has). The technique check also takes its evidence at
# the performance gate's shape, on two of the kit's launch's blocks.
_tilelab_add_technique_decoy(lab03-big-shape-naive 03_tiled_boundary fail "at the performance gate's shape" technique)
_tilelab_add_technique_decoy(lab02-late-blocks-naive 02_tiled fail "at the performance gate's shape" technique)
# Round seven: the technique in the first blocks to run only, counted by a ticket every block takes with atomicInc
# (wrapping at the grid's size), kept in a static variable of a __device__ function (refused by the source check) or
# in a plain global variable (an atomic outside every device buffer and shared memory faults); and kernels that tell
# the emulator from a GPU, by reading shared memory never written (NaN only in the emulator: under the probe it
# holds finite values) or by counting shared atomics between barriers (one thread at a time in the emulator: under
# the probe the block's threads interleave at each one).
_tilelab_add_technique_decoy(lab05-block-ticket 05_coarsened build-fails "may not keep a static variable" technique)
_tilelab_add_technique_decoy(lab10-block-ticket 10_mma_sync build-fails "may not keep a static variable" technique)
_tilelab_add_technique_decoy(lab05-global-ticket 05_coarsened fail "neither a device buffer nor shared memory" technique)
_tilelab_add_technique_decoy(lab05-file-scope-ticket 05_coarsened build-fails "may not declare a variable at file scope" technique)
_tilelab_add_technique_decoy(lab06-fresh-shared-tell 06_register_tiled fail "P came out unchanged|not the product of the second values" technique)
_tilelab_add_technique_decoy(lab08-atomic-schedule-tell 08_warp_tiled fail "P came out unchanged|not the product of the second values" technique)
# Round eight: tells of the emulator that no probe sees, refused by the source check on both backends: a fast-math
# intrinsic's exact value (__fdividef), the lanes the hardware runs together (__activemask), the type the CPU
# backend gives shared memory (decltype of a __shared__ name, lab 10's at compile time), and a static in a macro.
_tilelab_add_technique_decoy(lab05-fdividef-tell 05_coarsened build-fails "__fdividef is not allowed" technique)
_tilelab_add_technique_decoy(lab09-activemask-tell 09_tensor_cores build-fails "__activemask[(][)] is not allowed" technique)
_tilelab_add_technique_decoy(lab05-decltype-tell 05_coarsened build-fails "may not take the type of a __shared__ variable" technique)
_tilelab_add_technique_decoy(lab10-decltype-tell 10_mma_sync build-fails "may not take the type of a __shared__ variable" technique)
_tilelab_add_technique_decoy(lab05-macro-static 05_coarsened build-fails "a macro may not hold `static`" technique)
# Round eight: P as a tell. lane-order reads an element of P that another thread of its block stored before the same
# barrier (the emulator's threads run one at a time, a GPU's warp in step); pblock-order reads P[0] to learn whether
# block (0, 0) ran (never, in the gate shape's sample of blocks). The emulator now follows every kernel access to P:
# a read of an element its own thread did not store fails the launch (tilelab/cpu/output_reads.hpp).
_tilelab_add_technique_decoy(lab05-lane-order 05_coarsened fail "no matrix multiply makes" technique)
_tilelab_add_technique_decoy(lab05-pblock-order 05_coarsened fail "no matrix multiply makes" technique)
# Round ten: the evidence's operands as a tell. The GPU's gate draws operands with fixed fraction bits; the technique
# check's runs drew theirs otherwise (uniform, or from a pool with repeats), so a kernel could take the technique only
# where the operands did not look like the gate's. Every probed run now draws them as the gate does.
_tilelab_add_technique_decoy(lab05-gate-fingerprint 05_coarsened fail "P came out unchanged" technique)
# Round ten: pblock-order through copies of P that the emulator did not follow: a struct's float* field (the
# CUDA Programming Guide's Matrix C = {.., P}), a local float* assigned after its declaration, and an integer cast
# back through a typedef of float*. P's checked pointer now converts to no plain pointer; locals and struct members
# are checked pointers, and a cast to a type the rewrite cannot read may not point into P.
_tilelab_add_technique_decoy(lab05-pstruct-copy 05_coarsened fail "no matrix multiply makes" technique)
_tilelab_add_technique_decoy(lab05-plocal-assigned 05_coarsened fail "no matrix multiply makes" technique)
_tilelab_add_technique_decoy(lab05-palias-cast 05_coarsened fail "no matrix multiply makes" technique)

# Lab 10: lab 09's wmma model under lab 10's launch: tensor cores, but not mma.sync, which is lab 10's lesson.
if("cpu" IN_LIST TILELAB_BACKENDS)
  tilelab_add_lab(SUBMISSION decoy-lab10-wmma-model ROOT "${CMAKE_CURRENT_SOURCE_DIR}/gate/dishonest/previous-lab-model"
                  LAB 10_mma_sync TILE_WIDTH 16 BACKEND cpu EXPECT fail
                  MATCH "does 0% of its multiply-adds with mma.sync [(]tilelab::mma_m16n8k8_tf32[)]"
                  SUITES technique LABELS selftest decoy)
endif()

# The technique check's verdict depends on neither the machine nor the seed: lab 09's model at seeds where a sum its
# edge fragments leave in the scratch tile equals an element of M or N by chance (3 seeds in 36 cost it its 4 points,
# until the probe took store_matrix_sync's values for results, whatever their bits).
if("cpu" IN_LIST TILELAB_BACKENDS AND TARGET tilelab_graded_lab09_tw16_cpu)
  foreach(seed 12345 555 24680)
    add_test(NAME selftest.technique-seed-${seed}
             COMMAND tilelab-checker-cpu --lab lab09 --tile-width 16 --runner $<TARGET_FILE:tilelab_graded_lab09_tw16_cpu>
                     --time-limit 100 --verdict-file "${CMAKE_BINARY_DIR}/verdicts/selftest.technique-seed-${seed}"
                     --test-suite=technique)
    set_tests_properties(selftest.technique-seed-${seed} PROPERTIES ENVIRONMENT "TILELAB_SEED=${seed};TILELAB_VERIFY_CALIBRATION=1" TIMEOUT 120
                         LABELS "selftest;cpu;technique" FIXTURES_REQUIRED graded.lab09.tw16.cpu.built)
  endforeach()
endif()
