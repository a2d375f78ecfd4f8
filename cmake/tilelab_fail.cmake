# cmake -DMESSAGE=<text> -P tilelab_fail.cmake: prints the text and fails (a test that stands for a missing file).
message(FATAL_ERROR "${MESSAGE}")
