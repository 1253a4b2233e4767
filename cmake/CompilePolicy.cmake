# One INTERFACE target carries the compile policy of every Throughline target.
add_library(throughline_policy INTERFACE)
target_compile_features(throughline_policy INTERFACE cxx_std_20)
target_compile_options(throughline_policy INTERFACE -Wall -Wextra -Wpedantic)
if(THROUGHLINE_WERROR)
    target_compile_options(throughline_policy INTERFACE -Werror)
endif()
target_compile_definitions(throughline_policy INTERFACE
    QT_NO_CAST_FROM_ASCII
    QT_USE_QSTRINGBUILDER
    QT_NO_FOREACH
    QT_NO_URL_CAST_FROM_STRING
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT)
