# A test that fails with the reason given: cmake -DWHY=... -P fail.cmake.
message(FATAL_ERROR "${WHY}")
