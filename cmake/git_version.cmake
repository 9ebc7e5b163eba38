# Writes OUT: the commit `zsink --version` names, taken at every build (not
# only when CMake configures), and the file rewritten only when it changes,
# so an unchanged tree relinks nothing. Run by the zsink_git_version target.
execute_process(COMMAND git -C ${SRC} describe --always --dirty
                OUTPUT_VARIABLE ZSINK_GIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT ZSINK_GIT)
  set(ZSINK_GIT "unknown")
endif()
file(WRITE ${OUT}.tmp "const char *zs_git_describe = \"${ZSINK_GIT}\";\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
