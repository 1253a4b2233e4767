# The git SHA is recorded in every run's provenance; "unknown" outside a checkout.
execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                OUTPUT_VARIABLE THROUGHLINE_GIT_SHA
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT THROUGHLINE_GIT_SHA)
    set(THROUGHLINE_GIT_SHA "unknown")
endif()
