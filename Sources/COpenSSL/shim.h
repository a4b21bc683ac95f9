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
// JOSE (issue 19): keys built from parameters, ECDSA signatures, HMAC for HKDF.
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>
#include <openssl/hmac.h>
// WebAuthn (issue 20): packed attestation's x5c leaf certificate.
#include <openssl/x509.h>
#include <stdint.h>

static const uint64_t copenssl_OP_NO_COMPRESSION = SSL_OP_NO_COMPRESSION;
static const uint64_t copenssl_OP_NO_RENEGOTIATION = SSL_OP_NO_RENEGOTIATION;
static const uint64_t copenssl_OP_CIPHER_SERVER_PREFERENCE = SSL_OP_CIPHER_SERVER_PREFERENCE;

// Macros over casts or other macros that Swift does not import (JOSE, issue 19).
static const int copenssl_EVP_PKEY_RSA = EVP_PKEY_RSA;
static const int copenssl_EVP_PKEY_EC = EVP_PKEY_EC;
static const int copenssl_EVP_PKEY_PUBLIC_KEY = EVP_PKEY_PUBLIC_KEY;
static const int copenssl_EVP_PKEY_ED25519 = EVP_PKEY_ED25519;  // WebAuthn EdDSA (issue 20)
static const int copenssl_EVP_CTRL_GCM_GET_TAG = EVP_CTRL_GCM_GET_TAG;
static const int copenssl_EVP_CTRL_GCM_SET_TAG = EVP_CTRL_GCM_SET_TAG;

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
