# Each mutant is a model answer from solutions/ with one bug put in, and the message the grader must fail it
# with. Keep the FIND text in step with the solutions (configuring fails when it goes missing).

# --- lab 01 ---
tilelab_add_mutant(NAME naive-grid-rounds-down LAB 01_naive
  FIND "grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH)"
  REPLACE "grid(cols / TILE_WIDTH, rows / TILE_WIDTH)"
  MATCH "grid is too small")

tilelab_add_mutant(NAME naive-no-bounds-check LAB 01_naive
  FIND "if (row >= rows || col >= cols) return;"
  REPLACE ""
  MATCH "out-of-bounds write"
  # On the CPU backend the threads outside P fault first, reading past the end of M.
  CPU_MATCH "illegal memory access in the kernel matmul_naive_kernel.*out-of-bounds read")

tilelab_add_mutant(NAME naive-transposed-store LAB 01_naive
  FIND "P[row * cols + col] = sum;"
  REPLACE "P[col * rows + row] = sum;"
  MATCH "P holds the transpose of M [*] N")

tilelab_add_mutant(NAME naive-reads-M-by-column LAB 01_naive
  FIND "M[row * inner + k]"
  REPLACE "M[k * rows + row]"
  MATCH "M was read down a column")

tilelab_add_mutant(NAME naive-swapped-operands LAB 01_naive
  FIND "sum += M[row * inner + k] * N[k * cols + col];"
  REPLACE "sum += N[row * inner + k] * M[k * cols + col];"
  MATCH "the operands are swapped"
  # On the CPU backend the first shape where N is smaller than rows x inner faults on the read past its end.
  CPU_MATCH "illegal memory access in the kernel matmul_naive_kernel.*out-of-bounds read")

tilelab_add_mutant(NAME naive-faults LAB 01_naive
  FIND "P[row * cols + col] = sum;"
  REPLACE "P[row * cols + col + (1ll << 40)] = sum;"
  MATCH "cudaErrorIllegalAddress" CPU_MATCH "illegal memory access in the kernel matmul_naive_kernel.*cudaErrorIllegalAddress"
  CPU_TABLE_MATCH "^hint: the kernel reached an address in none of M, N and P while multiplying 1x1x1 with matmul_naive")

# x mapped to rows and y to columns, with a launcher to match: the launcher's P is right, the kit's launch of the
# kernel (x over columns) reaches only the part of P where the two mappings overlap, and the message says so.
tilelab_add_mutant(NAME naive-x-over-rows LAB 01_naive
  FIND "const int row = blockIdx.y * blockDim.y + threadIdx.y;\n    const int col = blockIdx.x * blockDim.x + threadIdx.x;"
  REPLACE "const int row = blockIdx.x * blockDim.x + threadIdx.x;\n    const int col = blockIdx.y * blockDim.y + threadIdx.y;"
  FIND2 "grid((cols + TILE_WIDTH - 1) / TILE_WIDTH, (rows + TILE_WIDTH - 1) / TILE_WIDTH)"
  REPLACE2 "grid((rows + TILE_WIDTH - 1) / TILE_WIDTH, (cols + TILE_WIDTH - 1) / TILE_WIDTH)"
  MATCH "your launcher's P is right, but the kernel launched by the kit with the contract's grid [(][0-9]+, [0-9]+[)] of blocks [(]16, 16[)]: x = blockIdx.x [*] blockDim.x [+] threadIdx.x runs over the columns of P.*hint: the kernel maps x to rows and y to columns")

# A lab 02 kernel whose blocks take their rows from blockIdx.x, with a launcher whose grid matches: its launcher's P is
# right, but under the kit's launch (blockIdx.x over the columns of P) a product wider than tall reads rows past M's
# end, where the CPU backend ends the program. The message names the rule of the kit's launch, not only the bounds
# tests. On the CPU backend only: a GPU may run those reads in the grader's guard zone, and fault or not.
tilelab_add_mutant(NAME tiled-block-x-over-rows LAB 02_tiled EXPECT none CPU_EXPECT fail
  FIND "const int row = blockIdx.y * TILE_WIDTH + ty;\n    const int col = blockIdx.x * TILE_WIDTH + tx;"
  REPLACE "const int row = blockIdx.x * TILE_WIDTH + ty;\n    const int col = blockIdx.y * TILE_WIDTH + tx;"
  FIND2 "const dim3 grid(cols / TILE_WIDTH, rows / TILE_WIDTH);"
  REPLACE2 "const dim3 grid(rows / TILE_WIDTH, cols / TILE_WIDTH);"
  CPU_MATCH "the kit's launch of the kernel.*hint: your launcher's run was right, but under the kit's own launch the same kernel (failed|wrote outside P)[.] The rule of that launch"
  CPU_TABLE_MATCH "^hint: your launcher's run was right, but under the kit's own launch the same kernel (failed|wrote outside P)[.]")

tilelab_add_mutant(NAME naive-compile-error LAB 01_naive EXPECT build-fails
  FIND "float sum = 0.0f;"
  REPLACE "float sum = 0.0f"
  MATCH "kernel[.]cu[(][0-9]+[)]: error" CPU_MATCH "kernel[.]cu:[0-9]+:[0-9]+: error")

# --- lab 02 ---
tilelab_add_mutant(NAME tiled-missing-first-barrier LAB 02_tiled
  FIND "__syncthreads();  // the tiles are complete before any thread reads them"
  REPLACE ""
  MATCH "elements wrong"
  CPU_MATCH "shared-memory race.*A barrier is missing between loading the tiles and computing from them")

# The index slips of a tile's load, read or phase (grader/src/tile_slips.hpp): P equals the product recomputed with
# the slip, and the hint names the load or index to fix.
tilelab_add_mutant(NAME tiled-transposed-N-tile LAB 02_tiled
  FIND "N_tile[ty][tx] = N["
  REPLACE "N_tile[tx][ty] = N["
  MATCH "elements wrong.*hint: P is what you get with the N tile transposed")

tilelab_add_mutant(NAME tiled-transposed-M-tile LAB 02_tiled
  FIND "M_tile[ty][tx] = M["
  REPLACE "M_tile[tx][ty] = M["
  MATCH "elements wrong.*hint: P is what you get with the M tile transposed")

tilelab_add_mutant(NAME tiled-M-tile-column-from-ty LAB 02_tiled
  FIND "M[row * inner + phase * TILE_WIDTH + tx]"
  REPLACE "M[row * inner + phase * TILE_WIDTH + ty]"
  MATCH "elements wrong.*hint: P is what you get when the M tile is loaded with ty where tx belongs")

tilelab_add_mutant(NAME tiled-N-tile-row-from-tx LAB 02_tiled
  FIND "N[(phase * TILE_WIDTH + ty) * cols + col]"
  REPLACE "N[(phase * TILE_WIDTH + tx) * cols + col]"
  MATCH "elements wrong.*hint: P is what you get when the N tile is loaded with tx where ty belongs")

tilelab_add_mutant(NAME tiled-M-load-without-phase LAB 02_tiled
  FIND "M[row * inner + phase * TILE_WIDTH + tx]"
  REPLACE "M[row * inner + tx]"
  MATCH "elements wrong.*hint: P is what you get when M's load leaves out the phase")

# The products read the tiles with tx and ty exchanged: thread (tx, ty) computes the transposed place of its tile.
tilelab_add_mutant(NAME tiled-products-transposed LAB 02_tiled
  FIND "sum += M_tile[ty][k] * N_tile[k][tx];"
  REPLACE "sum += M_tile[tx][k] * N_tile[k][ty];"
  MATCH "elements wrong.*hint: P is what you get with each TILE_WIDTH x TILE_WIDTH tile of P transposed")

tilelab_add_mutant(NAME tiled-sum-reset-per-phase LAB 02_tiled
  FIND "++phase) {\n        M_tile"
  REPLACE "++phase) {\n        sum = 0.0f;\n        M_tile"
  MATCH "elements wrong.*hint: P holds only the last phase's terms of each sum")

tilelab_add_mutant(NAME tiled-phase-loop-one-short LAB 02_tiled
  FIND "phase < inner / TILE_WIDTH;"
  REPLACE "phase < inner / TILE_WIDTH - 1;"
  MATCH "elements wrong.*hint: P holds every phase's terms but the last: the phase loop stops one phase early")

# The last phase dropped where every side is at least the performance gate's 2048: every correctness shape is smaller
# in at least one side, and the kernel is faster than the model, so only the gate's audit (sampled elements of the
# timed results against float64) can fail it. The CPU backend has no gate: every check it has passes the kernel.
tilelab_add_mutant(NAME tiled-wrong-at-gate-size LAB 02_tiled SUITES perf CPU_EXPECT none
  FIND "for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {"
  REPLACE "for (int phase = 0; phase < inner / TILE_WIDTH - (rows >= 2048 && inner >= 2048 && cols >= 2048 ? 1 : 0); ++phase) {"
  MATCH "sampled elements of the lab's results in the timed runs are wrong at this size")

# --- lab 03 ---
# Tiles read twice per multiply-add (as many reads as a tiled kernel's) but feeding nothing: `tile - tile` is 0, and
# the product comes from global memory. The CPU backend's scaled run sees P unchanged (grader/src/tile_sources.hpp);
# on a GPU the machine code does load two tile elements per multiply-add, so the mutant is the CPU backend's.
tilelab_add_mutant(NAME tiled-decoy-difference LAB 02_tiled
  FIND "sum += M_tile[ty][k] * N_tile[k][tx];"
  REPLACE "sum += M[row * inner + phase * TILE_WIDTH + k] * N[(phase * TILE_WIDTH + k) * cols + col] + (M_tile[ty][k] - M_tile[ty][k]) * N_tile[k][tx];"
  EXPECT none CPU_EXPECT fail SUITES shared-memory
  CPU_MATCH "P came back unchanged: the tiles feed nothing")

# Tiled, except that the first block recomputes its tile of P from global memory: P is right, and only part of it
# comes from the tiles (all of it when the check's shape has a single block).
tilelab_add_mutant(NAME boundary-first-block-from-global LAB 03_tiled_boundary
  FIND "if (row < rows && col < cols) P[row * cols + col] = sum;"
  REPLACE "if (row < rows && col < cols) { if (blockIdx.x == 0 && blockIdx.y == 0) { sum = 0.0f; for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col]; } P[row * cols + col] = sum; }"
  EXPECT none CPU_EXPECT fail SUITES shared-memory
  CPU_MATCH "P came back (neither multiplied by s [*] s everywhere nor unchanged|unchanged)")

# On the CPU backend the store past the end of P faults against the page after it ("out-of-bounds write" too), and
# the points table's line is the checker's diagnosis of that fault: the kernel wrote past the end of P.
tilelab_add_mutant(NAME boundary-no-store-check LAB 03_tiled_boundary
  FIND "if (row < rows && col < cols) P[row * cols + col] = sum;"
  REPLACE "P[row * cols + col] = sum;"
  MATCH "out-of-bounds write"
  CPU_TABLE_MATCH "^hint: the kernel wrote P[[][0-9]+[]], past the end of P [(]P is [0-9]+x[0-9]+, .*while multiplying")

# Tile elements outside M or N keep stale shared-memory data instead of zero.
tilelab_add_mutant(NAME boundary-no-zero-fill LAB 03_tiled_boundary
  FIND ": 0.0f;"
  REPLACE ": M_tile[ty][tx];"
  MATCH "partial tile")

tilelab_add_mutant(NAME boundary-skips-partial-phase LAB 03_tiled_boundary
  FIND "const int phases = (inner + TILE_WIDTH - 1) / TILE_WIDTH;"
  REPLACE "const int phases = inner / TILE_WIDTH;"
  MATCH "hint: P holds every phase's terms but the last: the last phase covers a partial tile")

# The issue's example: the M tile's column taken from ty. Lab 03's first failing shapes have a single row of P.
tilelab_add_mutant(NAME boundary-M-tile-column-from-ty LAB 03_tiled_boundary
  FIND "const int m_col = phase * TILE_WIDTH + tx;"
  REPLACE "const int m_col = phase * TILE_WIDTH + ty;"
  MATCH "elements wrong.*hint: P is what you get when the M tile is loaded with ty where tx belongs")

tilelab_add_mutant(NAME boundary-transposed-N-tile LAB 03_tiled_boundary
  FIND "N_tile[ty][tx] = (n_row"
  REPLACE "N_tile[tx][ty] = (n_row"
  MATCH "elements wrong.*hint: P is what you get with the N tile transposed")

tilelab_add_mutant(NAME boundary-N-load-without-phase LAB 03_tiled_boundary
  FIND "const int n_row = phase * TILE_WIDTH + ty;"
  REPLACE "const int n_row = ty;"
  MATCH "elements wrong.*hint: P is what you get when N's load leaves out the phase")

# On the CPU backend the load past the end of M faults, and the points table's line says so in the checker's words,
# with M's element and shape (not "a lab's program must not end by itself").
tilelab_add_mutant(NAME boundary-unchecked-loads LAB 03_tiled_boundary
  FIND "(row < rows && m_col < inner) ? "
  REPLACE "true ? "
  MATCH "results are NaN"
  CPU_MATCH "illegal memory access in the kernel matmul_tiled_boundary_kernel.*out-of-bounds read"
  CPU_TABLE_MATCH "^hint: the kernel read M[[][0-9]+[]], past the end of M [(]M is [0-9]+x[0-9]+, .*while multiplying")

# --- barriers and memory that only compute-sanitizer sees on a real GPU ---
# Without its second barrier a tiled kernel usually still gives the right answer: racecheck must catch it.
tilelab_add_mutant(NAME tiled-missing-second-barrier LAB 02_tiled EXPECT racecheck-fails
  FIND "__syncthreads();  // every thread is done with the tiles before the next phase overwrites them"
  REPLACE ""
  MATCH "shared-memory race"
  CPU_EXPECT fail
  CPU_MATCH "shared-memory race.*A barrier is missing between computing from the tiles and loading the next ones")

# Threads outside P skip the phases, and with them their loads and both barriers. synccheck reported no error
# for it on an H100 (2026-11-22); the tile elements those threads never load make the results wrong instead.
tilelab_add_mutant(NAME boundary-barrier-in-bounds-test LAB 03_tiled_boundary
  FIND "for (int phase = 0; phase < phases; ++phase) {"
  REPLACE "for (int phase = 0; phase < phases && row < rows && col < cols; ++phase) {"
  MATCH "elements wrong"
  CPU_MATCH "barrier divergence in matmul_tiled_boundary_kernel.*threads had returned from the kernel")

tilelab_add_mutant(NAME naive-faults-memcheck LAB 01_naive EXPECT memcheck-fails
  FIND "P[row * cols + col] = sum;"
  REPLACE "P[row * cols + col + (1ll << 40)] = sum;"
  MATCH "invalid memory access")

# --- lab 04 ---
tilelab_add_mutant(NAME timing-includes-copies LAB 04_timing FILE timing.cu
  FIND "    device_M.copy_from_host(M, m_count);"
  REPLACE "    tilelab::CudaEvent early_start;\n    early_start.record();\n    device_M.copy_from_host(M, m_count);"
  FIND2 "elapsed_ms(start, stop)"
  REPLACE2 "elapsed_ms(early_start, stop)"
  SUITES timing-clock
  MATCH "more than twice the kernel"
  CPU_EXPECT none)

# The same on the CPU backend, whose trace shows what the events bracket (the emulator's device clock advances by
# each copy's emulated duration too).
tilelab_add_mutant(NAME timing-includes-copies-cpu LAB 04_timing FILE timing.cu
  FIND "    device_M.copy_from_host(M, m_count);"
  REPLACE "    tilelab::CudaEvent early_start;\n    early_start.record();\n    device_M.copy_from_host(M, m_count);"
  FIND2 "elapsed_ms(start, stop)"
  REPLACE2 "elapsed_ms(early_start, stop)"
  SUITES timing-results
  EXPECT none
  CPU_EXPECT fail CPU_MATCH "the time between two events that also bracket a copy of [0-9]+ bytes to the device")

tilelab_add_mutant(NAME timing-no-wait LAB 04_timing FILE timing.cu
  FIND "const float ms = tilelab::elapsed_ms(start, stop);"
  REPLACE "float ms = 0.0f;\n    cudaEventElapsedTime(&ms, start.get(), stop.get());"
  SUITES timing-clock
  MATCH "less than half the kernel"
  CPU_EXPECT none)

tilelab_add_mutant(NAME timing-leaks LAB 04_timing FILE timing.cu
  FIND "    device_P.copy_to_host(P, p_count);"
  REPLACE "    float* leaked = nullptr;\n    TILELAB_CUDA_CHECK(cudaMalloc(&leaked, p_count * sizeof(float)));\n    device_P.copy_to_host(P, p_count);"
  SUITES timing-memory
  MATCH "bytes of device memory allocated")

tilelab_add_mutant(NAME timing-ignores-errors LAB 04_timing FILE timing.cu
  FIND "    tilelab::DeviceBuffer<float> device_M(m_count);"
  REPLACE "    tilelab::DeviceBuffer<float> device_M;\n    try { device_M = tilelab::DeviceBuffer<float>(m_count); } catch (const tilelab::CudaError&) { return 0.0f; }"
  SUITES timing-errors
  MATCH "reported no error")

# A kernel that never ends: the check is stopped and reported as a timeout, with a hint.
tilelab_add_mutant(NAME naive-never-ends LAB 01_naive
  FIND "for (int k = 0; k < inner; ++k)"
  REPLACE "for (int k = 0; k < inner; k += (inner > 0 ? 0 : 1))"
  SUITES tiny TIMEOUT 20
  MATCH "did not finish in time"
  # The points table's line says which request was in flight.
  CPU_TABLE_MATCH "^hint: the check did not finish in time while multiplying 1x1x1 with matmul_naive")

# A launcher that ends the program itself: the points table's line says so, with the request it was carrying out and
# the exit status, in the checker's words (not a fault, not a time-out).
tilelab_add_mutant(NAME naive-launcher-exits LAB 01_naive
  FIND "#include <tilelab/labs.hpp>"
  REPLACE "#include <tilelab/labs.hpp>\n\n#include <cstdlib>"
  FIND2 "    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);"
  REPLACE2 "    if (rows > 0) std::exit(3);\n    matmul_naive_kernel<<<grid, block>>>(M, N, P, rows, inner, cols);"
  SUITES tiny
  MATCH "exited with status 3 while multiplying"
  TABLE_MATCH "^hint: the lab's program ended by itself while multiplying 1x1x1 with matmul_naive[(][.][.][.][)], with exit status 3")

# --- what the CPU backend catches that a GPU run usually does not see ---
# A block of 48 x 48 threads: 2304, more than the 1024 a block may have. Both backends refuse the launch (CUDA 13
# says cudaErrorInvalidValue).
tilelab_add_mutant(NAME tiled-too-many-threads LAB 02_tiled
  FIND "const dim3 block(TILE_WIDTH, TILE_WIDTH);"
  REPLACE "const dim3 block(48, 48);"
  SUITES tiny
  MATCH "launch failed.*cudaErrorInvalidValue.*at most 1024 threads")

# A load that reads one element past the end of M, whose value the kernel then throws away: the results are
# right, so the GPU's checks pass it, and memcheck does too (the read lands in the grader's guard zone, inside
# the allocation: seen on an H100, 2026-11-22). Only the CPU backend's page guard catches it, where M ends against
# that page: where its size is a multiple of 4 floats (M stays 16-byte aligned, as on a GPU, so a smaller M ends up
# to 3 floats before the page, which read as NaN). Hence the edges suite (1 x 16 x 1 is the first such shape), not
# tiny's 1 x 1 x 1.
tilelab_add_mutant(NAME boundary-reads-past-end LAB 03_tiled_boundary
  FIND "M_tile[ty][tx] = (row < rows && m_col < inner) ? M[row * inner + m_col] : 0.0f;"
  REPLACE "const float m_value = M[min(row * inner + m_col, rows * inner)];\n        M_tile[ty][tx] = (row < rows && m_col < inner) ? m_value : 0.0f;"
  SUITES edges
  EXPECT none
  CPU_EXPECT fail CPU_MATCH "illegal memory access in the kernel matmul_tiled_boundary_kernel.*a read.*M[[]16[]], past the end of M [(]M is 1x16, 16 elements[;] index 16 would be row 1, column 0[)]"
  CPU_TABLE_MATCH "^hint: the kernel read M[[]16[]], past the end of M [(]M is 1x16, 16 elements")

# --- lab 04 (from the raw-API submission in accept/, which frees on every path) ---
set(raw_lab04 "${CMAKE_CURRENT_SOURCE_DIR}/accept")

# When N's allocation fails, M's is left allocated.
tilelab_add_mutant(NAME timed-leaks-on-error-path LAB 04_timing FROM "${raw_lab04}" FILE timing.cu
  FIND "check(cudaMalloc(&device_N, n_bytes), \"cudaMalloc(N)\");"
  REPLACE "if (cudaMalloc(&device_N, n_bytes) != cudaSuccess) throw tilelab::CudaError(cudaErrorMemoryAllocation, \"cudaMalloc(N)\", __FILE__, __LINE__);"
  SUITES timing-errors
  MATCH "when the allocation of N [^\n]* failed, matmul_timed left [0-9]+ bytes of device memory allocated")

# The elapsed time read without waiting for the stop event, and not checked: cudaErrorNotReady leaves 0 ms.
tilelab_add_mutant(NAME timed-no-wait-for-stop LAB 04_timing FROM "${raw_lab04}" FILE timing.cu
  FIND "    check(cudaEventSynchronize(stop), \"cudaEventSynchronize\");  // the kernel has finished: its time is known\n"
  REPLACE ""
  FIND2 "check(cudaEventElapsedTime(&ms, start, stop), \"cudaEventElapsedTime\");"
  REPLACE2 "cudaEventElapsedTime(&ms, start, stop);"
  SUITES timing-results
  MATCH "matmul_timed returned 0[.]0+ ms[^\n]*\n[^\n]*cudaEventSynchronize")

# --- lab 04 in unified memory (from differs/managed-memory) ---
# P's managed memory never freed: the CPU backend counts managed memory as the device's (cudaMemGetInfo), so the
# leak shows as a cudaMalloc's would. (On a GPU, managed pages count once the kernel has touched them; not
# registered there until seen failing on one.)
tilelab_add_mutant(NAME timed-managed-leaks LAB 04_timing FROM "${CMAKE_CURRENT_SOURCE_DIR}/differs/managed-memory"
  FILE timing.cu
  FIND "        cudaFree(z);\n"
  REPLACE ""
  SUITES timing-memory
  EXPECT none
  CPU_EXPECT fail CPU_MATCH "one call of matmul_timed left [0-9]+ bytes of device memory allocated: cudaFree every buffer")

# --- lab 05 (thread coarsening) ---
# Without the second barrier a fast thread's next-phase load overwrites a tile element slower threads still
# read: racecheck on a GPU, the emulator's race tracking on the CPU backend.
tilelab_add_mutant(NAME coarsened-missing-barrier LAB 05_coarsened EXPECT racecheck-fails
  FIND "__syncthreads();  // every thread is done with the tiles before the next phase overwrites them"
  REPLACE ""
  MATCH "shared-memory race"
  CPU_EXPECT fail
  CPU_MATCH "shared-memory race in matmul_coarsened_kernel.*A barrier is missing between computing from the tiles and loading the next ones")

# The rows of a thread's column of outputs are not tested against rows: a partial last block tile of rows
# (any rows that is not a multiple of 64) stores past the end of P.
tilelab_add_mutant(NAME coarsened-no-row-check LAB 05_coarsened
  FIND "if (row < rows && col < cols) P[row * cols + col] = sums[i];"
  REPLACE "if (col < cols) P[row * cols + col] = sums[i];"
  MATCH "out-of-bounds write")

# M_tile read with its indices swapped: the thread multiplies the wrong elements of M.
tilelab_add_mutant(NAME coarsened-swapped-tile-index LAB 05_coarsened
  FIND "M_tile[out_row + i][k]"
  REPLACE "M_tile[k][out_row + i]"
  MATCH "elements wrong.*hint: P is what you get when M_tile is read with its indices exchanged")

tilelab_add_mutant(NAME coarsened-N-load-without-phase LAB 05_coarsened
  FIND "const int n_k = phase + n_row, n_c = tile_col + n_col;"
  REPLACE "const int n_k = n_row, n_c = tile_col + n_col;"
  MATCH "elements wrong.*hint: P is what you get when N's load leaves out the phase: every phase stages the first 8 rows of N again")

tilelab_add_mutant(NAME coarsened-sums-reset-per-phase LAB 05_coarsened
  FIND "phase += kDepth) {\n        const int m_r"
  REPLACE "phase += kDepth) {\n        for (int i = 0; i < kOutputs; ++i) sums[i] = 0.0f;\n        const int m_r"
  MATCH "elements wrong.*hint: P holds only the last phase's terms of each sum")

# Whole phases only: the partial last phase of k is never run.
tilelab_add_mutant(NAME coarsened-whole-phases-only LAB 05_coarsened
  FIND "for (int phase = 0; phase < inner; phase += kDepth) {"
  REPLACE "for (int phase = 0; phase + kDepth <= inner; phase += kDepth) {"
  MATCH "elements wrong.*hint: P holds every phase's terms but the last: the last phase covers a partial tile [(]inner = [0-9]+, a phase covers 8 k[)] and never ran")

# Thread 0 of each block computes the block's whole 64 x 64 tile from global memory and the others store nothing:
# correct under any launch, but one thread writes 4096 elements where the lab gives it 8. Only the CPU backend's
# watch of P can tell who wrote what (on a GPU the performance gate fails it, for its slowness).
tilelab_add_mutant(NAME coarsened-one-thread-per-block LAB 05_coarsened EXPECT none SUITES tiny edges
  FIND "        if (row < rows && col < cols) P[row * cols + col] = sums[i];\n    }"
  REPLACE "        if (row < rows && col < cols && t < 0) P[row * cols + col] = sums[i];\n    }\n    for (int r = tile_row; t == 0 && r < rows && r < tile_row + kTile; ++r)\n        for (int c = tile_col; c < cols && c < tile_col + kTile; ++c) {\n            float sum = 0.0f;\n            for (int k = 0; k < inner; ++k) sum += M[r * inner + k] * N[k * cols + c];\n            P[r * cols + c] = sum;\n        }"
  CPU_EXPECT fail
  CPU_MATCH "one thread wrote [0-9]+ elements of P [(]block [(]0, 0[)], thread [(]0, 0[)];.*in lab 05 each thread computes at most 8 elements")

# --- lab 06 (2D register tiling) ---
# The micro-tile stored transposed: element (i, j) of a thread's micro-tile lands at (j, i).
tilelab_add_mutant(NAME register-micro-tile-swapped LAB 06_register_tiled
  FIND "P[row * cols + col] = sums[i][j];"
  REPLACE "P[row * cols + col] = sums[j][i];"
  MATCH "elements wrong.*hint: P is what you get with each 8 x 8 micro-tile of P transposed")

tilelab_add_mutant(NAME register-M-load-without-phase LAB 06_register_tiled
  FIND "const int m_r = tile_row + m_row, m_k = phase + m_col;"
  REPLACE "const int m_r = tile_row + m_row, m_k = m_col;"
  MATCH "elements wrong.*hint: P is what you get when M's load leaves out the phase: every phase stages the first 8 columns of M again")

# M's tile loaded without testing the inner dimension: where inner is not a multiple of the phase depth, the
# last phase reads past the end of M's rows (the next row's elements, or past M itself on its last row).
tilelab_add_mutant(NAME register-inner-boundary-missed LAB 06_register_tiled
  FIND "(m_r < rows && m_k < inner) ? "
  REPLACE "(m_r < rows) ? "
  MATCH "elements wrong"
  CPU_MATCH "illegal memory access in the kernel matmul_register_tiled_kernel.*out-of-bounds read")

# Without the first barrier threads compute from tile elements other threads have not loaded yet.
tilelab_add_mutant(NAME register-missing-barrier LAB 06_register_tiled EXPECT racecheck-fails
  FIND "__syncthreads();  // the tiles are complete before any thread reads them"
  REPLACE ""
  MATCH "shared-memory race"
  CPU_EXPECT fail
  CPU_MATCH "shared-memory race in matmul_register_tiled_kernel.*A barrier is missing between loading the tiles and computing from them")

# --- lab 07 (vectorised loads) ---
# A 16-byte load without testing that the row's length is a multiple of 4: where it is not, the rows after the
# first start between 16-byte boundaries, and the float4 load is misaligned.
tilelab_add_mutant(NAME vectorized-unaligned-load LAB 07_vectorized
  FIND "if (vector && col + 3 < limit) return *reinterpret_cast<const float4*>(row + col);"
  REPLACE "if (col + 3 < limit) return *reinterpret_cast<const float4*>(row + col);"
  MATCH "cudaErrorMisalignedAddress"
  CPU_MATCH "misaligned address in the kernel matmul_vectorized_kernel.*16-byte vector")

# M's rows read without testing the row: past the last row of M the loads run outside M. Those values only reach
# rows of P that are never stored, so the products are right, and on the GPU the reads stay inside the lab
# program's own memory (compute-sanitizer's memcheck saw nothing on an H100): a bug only the CPU backend shows.
tilelab_add_mutant(NAME vectorized-load-past-M LAB 07_vectorized EXPECT none
  FIND "const float4 m = r < rows ? load_four("
  REPLACE "const float4 m = true ? load_four("
  MATCH "out-of-bounds read"
  CPU_EXPECT fail
  CPU_MATCH "illegal memory access in the kernel matmul_vectorized_kernel.*[MN][[][0-9]+[]], past the end of [MN].*out-of-bounds read")

# The micro-tile's rows stored without testing them against rows: a partial block tile writes past P.
tilelab_add_mutant(NAME vectorized-row-boundary-missed LAB 07_vectorized
  FIND "if (row >= rows) break;"
  REPLACE ""
  MATCH "out-of-bounds write")

# --- lab 08 (warp tiling, asynchronous copies) ---
# Without the barrier after the wait, a thread reads a stage before the other threads' copies into it have landed,
# and refills the previous stage while slower threads still multiply from it.
tilelab_add_mutant(NAME warp-missing-stage-barrier LAB 08_warp_tiled
  FIND "__syncthreads();  // everyone's copies of phase p have landed, and everyone is done with phase p - 1's stage"
  REPLACE ""
  MATCH "elements wrong"
  CPU_MATCH "shared-memory race in matmul_warp_tiled_kernel")

# Without the wait, the barrier does not make the copies land: threads may read stages still in flight. On an H100
# the copies had landed by then in every run (no wrong element), so only the CPU backend, which lands a copy at the
# wait alone, shows the bug.
tilelab_add_mutant(NAME warp-missing-wait LAB 08_warp_tiled EXPECT none
  FIND "__pipeline_wait_prior(kStages - 2);  // this thread's copies of phase p have landed"
  REPLACE ""
  MATCH "elements wrong"
  CPU_EXPECT fail
  CPU_MATCH "shared-memory race in matmul_warp_tiled_kernel.*still in flight. A wait is missing")

# The micro-tile's indices swapped: each thread adds its products into the transposed places.
tilelab_add_mutant(NAME warp-micro-tile-swapped LAB 08_warp_tiled
  FIND "sums[i][j] += m_values[i] * n_values[j];"
  REPLACE "sums[j][i] += m_values[i] * n_values[j];"
  MATCH "elements wrong")

# A 16-byte copy of N without testing that cols is a multiple of 4: misaligned where it is not.
tilelab_add_mutant(NAME warp-unaligned-copy LAB 08_warp_tiled
  FIND "if (cols % 4 == 0 && k < inner && c < cols) {"
  REPLACE "if (k < inner && c < cols) {"
  MATCH "cudaErrorMisalignedAddress"
  CPU_MATCH "misaligned address in the kernel matmul_warp_tiled_kernel")

# The stores not tested against rows: a partial block tile writes past P.
tilelab_add_mutant(NAME warp-row-boundary-missed LAB 08_warp_tiled
  FIND "if (row < rows) {"
  REPLACE "{"
  MATCH "out-of-bounds write")

# --- fast paths on too weak a condition (the shapes that reach them: fast_path_shapes in grader/src/shapes.cpp) ---
# Lab 08's interior copies (no tests) taken when inner is a multiple of 4, where they need a multiple of the phase
# depth (16): with inner = 4, 8 or 12 past a multiple of 16, the last phase of an interior block copies rows of N
# past N's end (the guard's NaN on a GPU) and the next row's elements of M.
tilelab_add_mutant(NAME warp-interior-on-inner-multiple-of-4 LAB 08_warp_tiled
  FIND "inner % kDepth == 0 &&"
  REPLACE "inner % 4 == 0 &&"
  MATCH "results are NaN: the kernel read past the end of M or N"
  CPU_MATCH "illegal memory access in the kernel matmul_warp_tiled_kernel.*out-of-bounds read")

# The interior test without the columns: a block whose tile overhangs the last column copies N past the end of its
# rows, and on N's last row past N itself. Those columns of P are never stored, so the results are right and a GPU
# sees nothing (the reads land in the guard zone, inside the allocation); the CPU backend's page guard stops it.
tilelab_add_mutant(NAME warp-interior-ignores-cols LAB 08_warp_tiled EXPECT none
  FIND "tile_row + kTile <= rows && tile_col + kTile <= cols && inner % kDepth == 0 &&"
  REPLACE "tile_row + kTile <= rows && inner % kDepth == 0 &&"
  MATCH "out-of-bounds read"
  CPU_EXPECT fail
  CPU_MATCH "illegal memory access in the kernel matmul_warp_tiled_kernel.*out-of-bounds read")

# 16-byte copies of N when cols is even: with cols = 2 (mod 4) every other row of N starts 8 bytes off a 16-byte
# boundary, and the copy is misaligned.
tilelab_add_mutant(NAME warp-copy-on-even-cols LAB 08_warp_tiled
  FIND "if (cols % 4 == 0 && k < inner && c < cols) {"
  REPLACE "if (cols % 2 == 0 && k < inner && c < cols) {"
  MATCH "cudaErrorMisalignedAddress"
  CPU_MATCH "misaligned address in the kernel matmul_warp_tiled_kernel")

# Lab 07's 16-byte load of M taken wherever M's rows are aligned, without the test that the four lie inside the
# row: with inner = 4 (mod 8) the last phase's second group reads the next row's first four elements, and past M's
# end on its last row (NaN on a GPU, a page fault on the CPU backend).
tilelab_add_mutant(NAME vectorized-load-past-row-end LAB 07_vectorized
  FIND "const float4 m = r < rows ? load_four(M + static_cast<long long>(r) * inner, phase + m_k, inner, vector_M)"
  REPLACE "const float4 m = r < rows ? (vector_M ? *reinterpret_cast<const float4*>(M + static_cast<long long>(r) * inner + phase + m_k) : load_four(M + static_cast<long long>(r) * inner, phase + m_k, inner, false))"
  MATCH "results are NaN: the kernel read past the end of M or N"
  CPU_MATCH "illegal memory access in the kernel matmul_vectorized_kernel.*out-of-bounds read")

# Labs 05 and 06: the inner test on M's loads skipped when inner is a multiple of 4 (lab 07's condition for a
# vector load, taken for "no partial phase"): with inner = 4 (mod 8) the last phase reads four elements past each
# row, past M's end on its last row.
tilelab_add_mutant(NAME coarsened-inner-test-on-multiple-of-4 LAB 05_coarsened
  FIND "(m_r < rows && m_k < inner) ? "
  REPLACE "(m_r < rows && (inner % 4 == 0 || m_k < inner)) ? "
  MATCH "results are NaN: the kernel read past the end of M or N"
  CPU_MATCH "illegal memory access in the kernel matmul_coarsened_kernel.*out-of-bounds read")

tilelab_add_mutant(NAME register-inner-test-on-multiple-of-4 LAB 06_register_tiled
  FIND "(m_r < rows && m_k < inner) ? "
  REPLACE "(m_r < rows && (inner % 4 == 0 || m_k < inner)) ? "
  MATCH "results are NaN: the kernel read past the end of M or N"
  CPU_MATCH "illegal memory access in the kernel matmul_register_tiled_kernel.*out-of-bounds read")

# --- lab 08's pipeline (the pipeline check, grader/checks/pipeline_check.cpp) ---
# Each phase's copies waited for right after they are issued: the stages are still there, but nothing is in flight
# while the block multiplies (the single-buffered kernel of grader/selftest/gate/dishonest/single-buffered, in the
# model's code). Correct; only the pipeline check can tell.
tilelab_add_mutant(NAME warp-copies-waited-at-once LAB 08_warp_tiled SUITES pipeline
  FIND "            __pipeline_commit();\n\n            // Four k at a time"
  REPLACE "            __pipeline_commit();\n            __pipeline_wait_prior(0);\n\n            // Four k at a time"
  MATCH "each of them waited for [(]DEPBAR[)] before the next multiply-add"
  CPU_MATCH "every shared-memory read of the multiply-adds happened with no asynchronous copy of the reading thread in flight")

# M's tile stored through registers with ordinary loads and stores (lab 07's way), N's still copied asynchronously:
# half of the tiles do not arrive by asynchronous copies. Correct; only the pipeline check can tell, and only on the
# CPU backend: the mutation is in the interior blocks' loop, and the GPU's machine-code check accepts a kernel one
# of whose busiest loops is pipelined (the tested loop still is). A known difference (docs/grading.md, pipeline).
tilelab_add_mutant(NAME warp-m-tile-stored LAB 08_warp_tiled SUITES pipeline EXPECT none CPU_EXPECT fail
  FIND "__pipeline_memcpy_async(&M_tile[s][m_row][swizzled_chunk(m_row, m_chunk) * 4],"
  REPLACE "store_sixteen(&M_tile[s][m_row][swizzled_chunk(m_row, m_chunk) * 4],"
  FIND2 "/// Stores four elements of a row of P at"
  REPLACE2 "/// Lab 07's way: 16 bytes through registers.\n__device__ __forceinline__ void store_sixteen(float* to, const float* from, int) {\n    *reinterpret_cast<float4*>(to) = *reinterpret_cast<const float4*>(from);\n}\n\n/// Stores four elements of a row of P at"
  MATCH "by ordinary stores"
  CPU_MATCH "of the bytes reached shared memory by asynchronous copies, the rest by ordinary stores")

# --- lab 09 (tensor cores: wmma fragments, TF32 inputs) ---
# Without the barrier after the wait, a warp loads its fragments from a stage before the other threads' copies into
# it have landed, and refills the previous stage while slower warps still load fragments from it.
tilelab_add_mutant(NAME tensor-missing-stage-barrier LAB 09_tensor_cores
  FIND "__syncthreads();  // everyone's copies of phase p have landed, and every warp is done with phase p - 1's stage"
  REPLACE ""
  MATCH "elements wrong"
  CPU_MATCH "shared-memory race in matmul_tensor_core_kernel")

# N's fragments loaded with the unpadded row length as their leading dimension: each fragment's rows after the
# first come from the wrong places of N_tile.
tilelab_add_mutant(NAME tensor-wrong-leading-dimension LAB 09_tensor_cores
  FIND "wmma::load_matrix_sync(n_frags[j], &N_tile[s][k][warp_col + j * kFrag], kLdN);"
  REPLACE "wmma::load_matrix_sync(n_frags[j], &N_tile[s][k][warp_col + j * kFrag], kTile);"
  MATCH "elements wrong")

# The accumulators filled with zeros at the start of every phase: P keeps only the last phase's part of each sum.
tilelab_add_mutant(NAME tensor-accumulator-reset-per-phase LAB 09_tensor_cores
  FIND "        __pipeline_commit();\n\n#pragma unroll\n        for (int k = 0; k < kDepth; k += kStep) {"
  REPLACE "        __pipeline_commit();\n        for (int i = 0; i < kFragRows; ++i)\n            for (int j = 0; j < kFragCols; ++j) wmma::fill_fragment(sums[i][j], 0.0f);\n\n#pragma unroll\n        for (int k = 0; k < kDepth; k += kStep) {"
  MATCH "elements wrong.*hint: P holds only the last phase's terms of each sum")

# Warp 0 skips its mma_sync on the last phase when that phase is partial (inner not a multiple of the phase depth):
# its warp tile misses the last few terms of every sum.
tilelab_add_mutant(NAME tensor-warp-skips-partial-phase LAB 09_tensor_cores
  FIND "for (int j = 0; j < kFragCols; ++j) wmma::mma_sync(sums[i][j], m_frags[i], n_frags[j], sums[i][j]);"
  REPLACE "for (int j = 0; j < kFragCols; ++j)\n                    if (!(warp == 0 && p == phases - 1 && inner % kDepth != 0))\n                        wmma::mma_sync(sums[i][j], m_frags[i], n_frags[j], sums[i][j]);"
  MATCH "elements wrong")

# The stores of an edge block's fragments not tested against P's edges: a partial block tile writes past P.
tilelab_add_mutant(NAME tensor-edge-store-unchecked LAB 09_tensor_cores
  FIND "                if (row < rows && col < cols)\n"
  REPLACE ""
  MATCH "out-of-bounds write")

# The fragments' elements rounded to half precision (FP16: 11 significant bits, as TF32, but range 6e-5 to 65504)
# instead of TF32: right on operands in [-1, 1), wrong on the input-range check's, which span float32's range.
set(tilelab_round_to_half "/// FP16's rounding in float arithmetic: 11 significant bits, to nearest; steps of 2^-24 below 2^-14; infinite from 65520.\n__device__ __forceinline__ float round_to_half(float x) {\n    const float a = fabsf(x);\n    if (a >= 65520.0f) return x < 0.0f ? -INFINITY : INFINITY;\n    const float quantum = a < 6.103515625e-05f ? 5.9604644775390625e-08f : ldexpf(1.0f, ilogbf(a) - 10);\n    return rintf(x / quantum) * quantum;\n}\n\n/// Rounds every element")
tilelab_add_mutant(NAME tensor-inputs-rounded-to-half LAB 09_tensor_cores SUITES input-range
  FIND "fragment.x[t] = wmma::__float_to_tf32(fragment.x[t]);"
  REPLACE "fragment.x[t] = round_to_half(fragment.x[t]);"
  FIND2 "/// Rounds every element"
  REPLACE2 "${tilelab_round_to_half}"
  MATCH "these operands are of one sign and span float32's range")

# The accumulators rounded to half precision after every phase (a kernel that keeps its sums in FP16): the sums of
# one sign that the input-range check multiplies lose their small terms as they grow.
tilelab_add_mutant(NAME tensor-accumulates-in-half LAB 09_tensor_cores SUITES input-range
  FIND "        s = s == kStages - 1 ? 0 : s + 1;\n    }\n\n    // A block wholly"
  REPLACE "        for (int i = 0; i < kFragRows; ++i)\n            for (int j = 0; j < kFragCols; ++j)\n                for (int t = 0; t < sums[i][j].num_elements; ++t) sums[i][j].x[t] = round_to_half(sums[i][j].x[t]);\n        s = s == kStages - 1 ? 0 : s + 1;\n    }\n\n    // A block wholly"
  FIND2 "/// Rounds every element"
  REPLACE2 "${tilelab_round_to_half}"
  MATCH "these operands are of one sign and span float32's range")

# --- lab 10 ---
# Without the barrier after the wait, a warp loads its fragments from a stage before the other threads' copies into
# it have landed, and refills the previous stage while slower warps still load fragments from it.
tilelab_add_mutant(NAME mma-missing-stage-barrier LAB 10_mma_sync
  FIND "__syncthreads();  // everyone's copies of phase p have landed, and every warp is done with phase p - 1's stage"
  REPLACE ""
  MATCH "elements wrong"
  CPU_MATCH "shared-memory race in matmul_mma_sync_kernel")

# ldmatrix_x4's row addresses in the wrong order: lanes 8-15 give rows 0-7 at k + 4 and lanes 16-23 rows 8-15 at k,
# so the A fragment's a[1] and a[2] trade places; the hint names the A fragment's documented layout.
tilelab_add_mutant(NAME mma-wrong-A-layout LAB 10_mma_sync
  FIND "const int a_row = lane % 16, a_half = lane / 16"
  REPLACE "const int a_row = lane % 8 + 8 * (lane / 16), a_half = (lane / 8) % 2"
  MATCH "registers a[[]1[]] and a[[]2[]] exchanged: in mma.m16n8k8's A fragment")

# B's registers read with k and n exchanged (b[0] = B(g, t), b[1] = B(g, t + 4), each from its swizzled place): each
# 8 x 8 block of N multiplied transposed; the hint names the B fragment's documented layout.
tilelab_add_mutant(NAME mma-wrong-B-layout LAB 10_mma_sync
  FIND "b[j][0] = tilelab::to_tf32(N_tile[s][k + t][b_column[j]]);\n                    b[j][1] = tilelab::to_tf32(N_tile[s][k + t + 4][b_column[j]]);"
  REPLACE "b[j][0] = tilelab::to_tf32(N_tile[s][k + g][4 * n_chunk(k + g, (warp_col + 8 * j) / 4) + t]);\n                    b[j][1] = tilelab::to_tf32(N_tile[s][k + g][4 * n_chunk(k + g, (warp_col + 8 * j) / 4 + 1) + t]);"
  MATCH "each 8 x 8 block of N transposed: the B fragment was read with k and n exchanged")

# The fragments' registers not converted: mma takes the top 19 bits of each float, a truncation that errs up to twice
# TF32's rounding and of one sign per input; on the edges' short sums a product's error passes TF32's bound, and the
# hint names the missing conversion.
tilelab_add_mutant(NAME mma-inputs-not-converted LAB 10_mma_sync SUITES edges
  FIND "for (int r = 0; r < 4; ++r) a[i][r] = tilelab::to_tf32(a[i][r]);"
  REPLACE ""
  FIND2 "tilelab::to_tf32(N_tile"
  REPLACE2 "(N_tile"
  MATCH "with tilelab::to_tf32 before tilelab::mma_m16n8k8_tf32")

# B's second register converted in the first step of k alone: the conversion check shows it at every later k.
tilelab_add_mutant(NAME mma-inputs-converted-first-step LAB 10_mma_sync SUITES input-range
  FIND "b[j][1] = tilelab::to_tf32(N_tile[s][k + t + 4][b_column[j]]);"
  REPLACE "b[j][1] = p == 0 && k == 0 ? tilelab::to_tf32(N_tile[s][k + t + 4][b_column[j]]) : N_tile[s][k + t + 4][b_column[j]];"
  MATCH "convert every element of every fragment at every step of k")

# The accumulator's registers stored as if c[0], c[1] were rows g and g + 8: c[1] and c[2] trade places in P.
tilelab_add_mutant(NAME mma-wrong-accumulator-layout LAB 10_mma_sync
  FIND "const float first = sums[i][j][2 * h], second = sums[i][j][2 * h + 1];"
  REPLACE "const float first = sums[i][j][h], second = sums[i][j][h + 2];"
  MATCH "the accumulator's registers c[[]1[]] and c[[]2[]] exchanged")

# The rows of an edge block's products stored without a test against P's last row: writes past P.
tilelab_add_mutant(NAME mma-edge-store-unchecked LAB 10_mma_sync
  FIND "            if (row >= rows) continue;\n"
  REPLACE ""
  MATCH "out-of-bounds write")

# --- bounds no shape reached (red-team pass, CPU backend) ---
# Columns from 1040 on skipped: every shape but the far ones (odd_shapes in grader/src/shapes.cpp: a dimension past
# 4096) stays under 1040 columns, so this kernel earned full marks before they were added.
tilelab_add_mutant(NAME naive-skips-far-columns LAB 01_naive SUITES odd-shapes
  FIND "if (row >= rows || col >= cols) return;"
  REPLACE "if (row >= rows || col >= cols || col >= 1040) return;"
  MATCH "elements of P were never written")

# Sums added into P (atomicAdd) that nobody cleared: P starts as the kit's NaN, not zero. On the CPU backend the NaN
# keeps its bits through the additions and reads as "never written"; the hint names the cause either way. The CPU
# backend now stops at the first atomic, which reads the poison (tilelab/cpu/output_reads.hpp).
tilelab_add_mutant(NAME naive-accumulates-into-P LAB 01_naive SUITES tiny
  FIND "    float sum = 0.0f;\n    for (int k = 0; k < inner; ++k) sum += M[row * inner + k] * N[k * cols + col];\n    P[row * cols + col] = sum;"
  REPLACE "    for (int k = 0; k < inner; ++k) atomicAdd(&P[row * cols + col], M[row * inner + k] * N[k * cols + col]);"
  MATCH "P does not start at zero|before anything stored it")

# M's tile elements outside M left unset instead of 0.0f (N's still zero-filled): each is multiplied by 0, which
# gives 0 for any finite leftover but NaN for an unwritten one. The CPU backend's fresh shared memory is NaN, and
# the hint names the cause from its bits; a GPU's leftover shared memory usually holds finite values from an
# earlier block, so this bug only the CPU backend can show for sure.
tilelab_add_mutant(NAME boundary-tile-left-unset LAB 03_tiled_boundary SUITES tiny EXPECT none CPU_EXPECT fail
  FIND "M_tile[ty][tx] = (row < rows && m_col < inner) ? M[row * inner + m_col] : 0.0f;"
  REPLACE "if (row < rows && m_col < inner) M_tile[ty][tx] = M[row * inner + m_col];"
  CPU_MATCH "read shared memory [(]or a cudaMalloc buffer of its own[)] before any thread stored to it")

# The fragments' elements left as loaded, not converted with __float_to_tf32: the tensor cores (and the CPU backend)
# take the top 19 bits, a truncation that errs up to twice TF32's rounding and of one sign per input; on the
# edges' short sums a product's error passes TF32's bound, and the hint names the missing conversion.
tilelab_add_mutant(NAME tensor-inputs-not-converted LAB 09_tensor_cores SUITES edges
  FIND "fragment.x[t] = wmma::__float_to_tf32(fragment.x[t]);"
  REPLACE "fragment.x[t] = fragment.x[t] + 0.0f;"
  MATCH "convert every element of M's and N's fragments with wmma::__float_to_tf32")

# The conversion written into some k-steps only: M's fragments converted in the first phase alone, N's in every
# phase but the last, element 0 of every fragment never. The edges' short sums show a truncation at the first k
# only; the conversion check's operands (one float32 step below TF32 values, sums of two or three products) show it
# at any k, and the hint says so.
tilelab_add_mutant(NAME tensor-inputs-converted-first-phase LAB 09_tensor_cores SUITES input-range
  FIND "round_to_tf32(m_frags[i]);"
  REPLACE "if (p == 0) round_to_tf32(m_frags[i]);"
  MATCH "convert every element of every fragment at every step of k")
tilelab_add_mutant(NAME tensor-inputs-unconverted-last-phase LAB 09_tensor_cores SUITES input-range
  FIND "round_to_tf32(n_frags[j]);"
  REPLACE "if (p + 1 < phases) round_to_tf32(n_frags[j]);"
  MATCH "convert every element of every fragment at every step of k")
tilelab_add_mutant(NAME tensor-input-element-unconverted LAB 09_tensor_cores SUITES input-range
  FIND "for (int t = 0; t < fragment.num_elements; ++t)"
  REPLACE "for (int t = 1; t < fragment.num_elements; ++t)"
  MATCH "convert every element of every fragment at every step of k")

# Each thread also stores into its right neighbour's element. On a GPU the neighbour's own store comes first within
# a warp and is overwritten: wrong values. The CPU backend runs each thread to its end before the next, so P comes
# out right there, and the work spread names the store into an element another thread owns.
tilelab_add_mutant(NAME naive-stores-into-neighbour LAB 01_naive SUITES edges
  FIND "    P[row * cols + col] = sum;"
  REPLACE "    P[row * cols + col] = sum;\n    if (col + 1 < cols) P[row * cols + col + 1] = -1.0f;"
  MATCH "elements wrong"
  CPU_MATCH "a thread stored to an element another thread owns")
