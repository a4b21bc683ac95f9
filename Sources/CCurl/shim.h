#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
// libcurl (Debian's libcurl4-openssl-dev): TIL's SMTP client (Sources/Mail). curl_easy_setopt
// and curl_easy_getinfo are C variadics, which Swift cannot call: the typed static inline
// wrappers below give each argument type its own function.
#include <curl/curl.h>

static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_read_function(CURL *handle, curl_read_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}

static inline CURLcode ccurl_setopt_progress_function(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode ccurl_setopt_sockopt_function(CURL *handle, curl_sockopt_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, callback);
}

static inline CURLcode ccurl_setopt_closesocket_function(CURL *handle, curl_closesocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, callback);
}

static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
