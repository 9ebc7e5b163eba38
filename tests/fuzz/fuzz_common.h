/*  fuzz_common.h - what the fuzz targets share: the input as a C string,
    the input as a file (for decoders that take a path), and a check that
    stops the run when a property of a decoder does not hold.
*/
#ifndef ZS_FUZZ_COMMON_H_INCLUDED
#define ZS_FUZZ_COMMON_H_INCLUDED

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

//  A property of a decoder failed (a round trip, an invariant): that is a
//  bug like a crash, so crash, and libFuzzer keeps the input.
#define ZS_FUZZ_CHECK(cond)                                                                        \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf (stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond);           \
            abort ();                                                                              \
        }                                                                                          \
    } while (0)

//  ZS_FUZZ_VERBOSE=1 in the environment: targets say what the decoder
//  made of each input (handy when running one file: ./fuzz_x FILE).
static inline int
zs_fuzz_verbose (void)
{
    static int verbose = -1;
    if (verbose < 0)
        verbose = getenv ("ZS_FUZZ_VERBOSE") != NULL;
    return verbose;
}

//  The input as a NUL-terminated string, malloc'd (ASan sees a read past
//  it). Text decoders stop at an embedded NUL as they would on a file.
static inline char *
zs_fuzz_text (const uint8_t *data, size_t size)
{
    char *text = malloc (size + 1);
    if (!text)
        abort ();
    memcpy (text, data, size);
    text[size] = 0;
    return text;
}

//  The input as a file: one memfd per process, rewritten for each input,
//  named by its /proc/self/fd path (the decoders open it themselves).
//  Nothing touches the disk, and runs in parallel never share a file.
static inline const char *
zs_fuzz_file (const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create ("zsink-fuzz", MFD_CLOEXEC);
        if (fd < 0) {
            perror ("memfd_create");
            abort ();
        }
        snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate (fd, 0) != 0) {
        perror ("ftruncate");
        abort ();
    }
    size_t done = 0;
    while (done < size) {
        ssize_t n = pwrite (fd, data + done, size - done, (off_t) done);
        if (n <= 0) {
            perror ("pwrite");
            abort ();
        }
        done += (size_t) n;
    }
    return path;
}

#endif
