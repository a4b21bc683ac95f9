#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
// libcrypto (randomness, digests) and libssl (the HTTPS listener). OpenSSL spells several
// calls as macros over SSL_CTX_ctrl and its option bits as casts Swift cannot import: the
// static inline wrappers and constants below give them to Swift unchanged.
#include <openssl/rand.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <stdint.h>

static const uint64_t copenssl_OP_NO_COMPRESSION = SSL_OP_NO_COMPRESSION;
static const uint64_t copenssl_OP_NO_RENEGOTIATION = SSL_OP_NO_RENEGOTIATION;
static const uint64_t copenssl_OP_CIPHER_SERVER_PREFERENCE = SSL_OP_CIPHER_SERVER_PREFERENCE;

static inline int copenssl_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

static inline long copenssl_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}

static inline void copenssl_CTX_set_read_ahead(SSL_CTX *ctx, int yes) {
    SSL_CTX_set_read_ahead(ctx, yes);
}

#endif
