// Cheat: the launcher forks 3 children that start sessions of their own and sleep for 10 minutes, holding
// every descriptor they inherited (the request and reply pipes, fds 3 and 4, included), then exits with
// status 0 at once. Where the grader judged by exit status (or waited for the pipes to close) this passed, or
// hung the grading.
// Stopped by: the checker notices the runner ended although its children hold the channel open, and ends
// every process of the runner's user.
#include <tilelab/labs.hpp>

#include <unistd.h>

__global__ void matmul_naive_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {}

void matmul_naive(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    for (int child = 0; child < 3; ++child) {
        if (fork() == 0) {
            setsid();
            sleep(600);
            _exit(0);
        }
    }
    _exit(0);
}
