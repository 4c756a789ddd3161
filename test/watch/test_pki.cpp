#include "test_pki.hpp"

#include <memory>
#include <stdexcept>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace troupe::test {

namespace {

using KeyPtr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using CertPtr = std::unique_ptr<X509, decltype(&X509_free)>;

KeyPtr make_key() {
  EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
  if (key == nullptr) throw std::runtime_error("test pki: key generation failed");
  return KeyPtr(key, &EVP_PKEY_free);
}

void add_extension(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  if (ext == nullptr) throw std::runtime_error("test pki: bad extension");
  X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
}

// Signs a certificate for `subject_cn` with `issuer_key` (self-signed when issuer is null).
CertPtr make_cert(const char* subject_cn, EVP_PKEY* key, X509* issuer, EVP_PKEY* issuer_key, long serial,
                  bool is_ca, const char* san) {
  CertPtr cert(X509_new(), &X509_free);
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 7L * 24 * 3600);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(subject_cn), -1, -1, 0);
  X509_set_issuer_name(cert.get(), issuer != nullptr ? X509_get_subject_name(issuer) : name);
  X509* issuer_cert = issuer != nullptr ? issuer : cert.get();
  if (is_ca) {
    add_extension(cert.get(), issuer_cert, NID_basic_constraints, "critical,CA:TRUE");
    add_extension(cert.get(), issuer_cert, NID_key_usage, "critical,keyCertSign,cRLSign");
  } else {
    add_extension(cert.get(), issuer_cert, NID_basic_constraints, "critical,CA:FALSE");
    add_extension(cert.get(), issuer_cert, NID_ext_key_usage, "serverAuth,clientAuth");
  }
  if (san != nullptr) add_extension(cert.get(), issuer_cert, NID_subject_alt_name, san);
  if (X509_sign(cert.get(), issuer_key, EVP_sha256()) == 0) throw std::runtime_error("test pki: signing failed");
  return cert;
}

std::string bio_text(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  std::string out(data, static_cast<std::size_t>(size));
  BIO_free(bio);
  return out;
}

std::string cert_pem(X509* cert) {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, cert);
  return bio_text(bio);
}

std::string key_pem(EVP_PKEY* key) {
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  return bio_text(bio);
}

TestPki generate() {
  TestPki pki;
  KeyPtr ca_key = make_key();
  CertPtr ca = make_cert("troupe-test-ca", ca_key.get(), nullptr, ca_key.get(), 1, true, nullptr);
  KeyPtr server_key = make_key();
  CertPtr server = make_cert("apiserver", server_key.get(), ca.get(), ca_key.get(), 2, false,
                             "IP:127.0.0.1,DNS:localhost,DNS:apiserver.test");
  KeyPtr client_key = make_key();
  CertPtr client = make_cert("troupe-client", client_key.get(), ca.get(), ca_key.get(), 3, false, nullptr);
  KeyPtr other_key = make_key();
  CertPtr other = make_cert("unrelated-ca", other_key.get(), nullptr, other_key.get(), 4, true, nullptr);
  pki.ca_pem = cert_pem(ca.get());
  pki.server_cert_pem = cert_pem(server.get());
  pki.server_key_pem = key_pem(server_key.get());
  pki.client_cert_pem = cert_pem(client.get());
  pki.client_key_pem = key_pem(client_key.get());
  pki.other_ca_pem = cert_pem(other.get());
  return pki;
}

}  // namespace

const TestPki& test_pki() {
  static const TestPki pki = generate();
  return pki;
}

std::string base64_encode(const std::string& bytes) {
  static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += alphabet[v & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += rest == 2 ? alphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

}  // namespace troupe::test
