// Cheat: one line that reaches the kit's model answer through the kit's include folder (common/include), which
// nvcc compiles on the GPU backend (the CPU backend's rewrite does not reach included files).
// Stopped by: the source check (an include may not hold `..`, nor name a header of the kit's own).
#include <tilelab/../../../solutions/03_tiled_boundary/kernel.cu>
