/* The toolkit's version, recorded in every output it writes. The Makefile passes the git
 * revision in CS_GIT_REVISION when it can read one. */
#ifndef CS_VERSION_H
#define CS_VERSION_H

#define CS_VERSION_NUMBER "0.1.0"
#ifndef CS_GIT_REVISION
#define CS_GIT_REVISION "unknown"
#endif
#define CS_VERSION CS_VERSION_NUMBER "+" CS_GIT_REVISION

#endif
