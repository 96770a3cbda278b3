#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

/* OpenSSL's macros, as functions Swift can call. */
static inline long radar_ssl_set_host_name(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }
static inline long radar_ssl_ctx_set_min_tls12(SSL_CTX *ctx) { return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION); }
static inline long radar_ssl_set_release_buffers(SSL *ssl) { return SSL_set_mode(ssl, SSL_MODE_RELEASE_BUFFERS); }
