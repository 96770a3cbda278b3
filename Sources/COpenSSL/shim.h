#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

/* OpenSSL's macros, as functions Swift can call. */
static inline long radar_ssl_set_host_name(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }
static inline long radar_ssl_ctx_set_min_tls12(SSL_CTX *ctx) { return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION); }
/* Buffers released while idle; a write may be partial, and a write retried
 * after WANT_WRITE may come from a buffer that has moved or grown (the
 * client's queue is an array that is appended to meanwhile). */
static inline long radar_ssl_set_modes(SSL *ssl) {
    return SSL_set_mode(ssl, SSL_MODE_RELEASE_BUFFERS | SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}
