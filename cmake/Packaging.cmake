# Install rules for data, docs and desktop integration, and the CPack .deb configuration.
# Included once at the end of the top-level CMakeLists.txt; the executables' install rules live in
# app/CMakeLists.txt.
#
#   cmake --build B --target throughline_package_inputs && cpack -G DEB --config B/CPackConfig.cmake -B OUT
#
# With THROUGHLINE_BUILD_GUI=OFF the same configuration yields a headless package named throughline-cli
# (no Qt Widgets/QCustomPlot dependencies) — that is what packaging/Dockerfile and make-rootfs.sh want.
include(GNUInstallDirs)

if(THROUGHLINE_BUILD_GUI)
    set(THROUGHLINE_PACKAGE_NAME throughline)
else()
    set(THROUGHLINE_PACKAGE_NAME throughline-cli)
endif()
set(THROUGHLINE_PACKAGE_MAINTAINER "Throughline maintainers <maintainers@users.noreply.github.com>"
    CACHE STRING "Maintainer field of the .deb (Name <address>)")

set(_pkg_src ${PROJECT_SOURCE_DIR}/packaging)
set(_pkg_bin ${PROJECT_BINARY_DIR}/packaging)
set(_docdir ${CMAKE_INSTALL_DATAROOTDIR}/doc/${THROUGHLINE_PACKAGE_NAME})
file(MAKE_DIRECTORY ${_pkg_bin}/man)

# Debian policy: directories 0755 even when install() creates them implicitly.
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

# cpack installs what is built instead of building "all" first (all = every test and benchmark).
# Build throughline_package_inputs (or everything) before running cpack.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY TRUE)
add_custom_target(throughline_package_inputs DEPENDS throughline-cli throughline-sim)
if(THROUGHLINE_BUILD_GUI)
    add_dependencies(throughline_package_inputs throughline)
endif()

# --- generated docs: changelog.gz and man pages, gzip -9n (no timestamp, reproducible) ----------------
set(CPACK_PACKAGE_CONTACT "${THROUGHLINE_PACKAGE_MAINTAINER}")
configure_file(${_pkg_src}/changelog.in ${_pkg_bin}/changelog @ONLY)
function(_throughline_gzip in out)
    execute_process(COMMAND gzip -9n -c ${in} OUTPUT_FILE ${out} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "Packaging: gzip ${in} failed (${rc})")
    endif()
endfunction()
_throughline_gzip(${_pkg_bin}/changelog ${_pkg_bin}/changelog.gz)
set(_man_pages throughline-cli throughline-sim)
if(THROUGHLINE_BUILD_GUI)
    list(APPEND _man_pages throughline)
endif()
foreach(_m IN LISTS _man_pages)
    configure_file(${_pkg_src}/man/${_m}.1 ${_pkg_bin}/man/${_m}.1 @ONLY)
    _throughline_gzip(${_pkg_bin}/man/${_m}.1 ${_pkg_bin}/man/${_m}.1.gz)
    install(FILES ${_pkg_bin}/man/${_m}.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endforeach()

# --- docs ------------------------------------------------------------------------------------------
install(FILES ${_pkg_src}/copyright ${_pkg_bin}/changelog.gz DESTINATION ${_docdir})
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${_docdir})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${_docdir}/docs FILES_MATCHING PATTERN "*.md")

# --- data: example campaigns, target tables, the results schema (also compiled into core) -----------
foreach(_d campaigns targets schemas)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/${_d}/ DESTINATION ${CMAKE_INSTALL_DATADIR}/throughline/${_d})
endforeach()

# --- desktop integration (GUI package only) --------------------------------------------------------
if(THROUGHLINE_BUILD_GUI)
    set(_appid io.github.throughline.Throughline)
    install(FILES ${_pkg_src}/throughline.desktop
            DESTINATION ${CMAKE_INSTALL_DATADIR}/applications RENAME ${_appid}.desktop)
    install(FILES ${_pkg_src}/${_appid}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/throughline.svg
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/icons/hicolor/ DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor
            FILES_MATCHING PATTERN "*.png")
endif()

# --- CPack -----------------------------------------------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ${THROUGHLINE_PACKAGE_NAME})
set(CPACK_PACKAGE_VENDOR "Throughline maintainers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "workbench for LLM-inference benchmark campaigns")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON) # lintian: unstripped-binary-or-object is an error
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # NAME_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${THROUGHLINE_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON) # Depends from dpkg-shlibdeps (libqcustomplot2.1-qt6, libqt6*, libcurl4 …)
# Extended description; CPack prepends the summary as the synopsis line.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"Throughline composes scenario matrices (model x backend x deployment x phase),
runs them against OpenAI-compatible inference endpoints (vLLM, SGLang,
TensorRT-LLM, Dynamo, NIM, llama.cpp) or a built-in simulated endpoint,
measures TTFT, TPOT, throughput per GPU and goodput, judges the results
against targets and keeps every run in a local history database.")
if(THROUGHLINE_BUILD_GUI)
    string(APPEND CPACK_DEBIAN_PACKAGE_DESCRIPTION "
.
This package contains the desktop application (throughline), the headless
command-line front end (throughline-cli) and the simulator (throughline-sim).")
    set(CPACK_DEBIAN_PACKAGE_CONFLICTS throughline-cli)
    set(CPACK_DEBIAN_PACKAGE_REPLACES throughline-cli)
    set(CPACK_DEBIAN_PACKAGE_PROVIDES throughline-cli)
else()
    string(APPEND CPACK_DEBIAN_PACKAGE_DESCRIPTION "
.
This package contains only the headless front end (throughline-cli) and the
simulator (throughline-sim), for CI machines and cluster nodes.")
    set(CPACK_DEBIAN_PACKAGE_CONFLICTS throughline)
endif()
include(CPack)
