#include "sim/self_signed_cert.hpp"

#include <memory>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace troupe::sim {

namespace {

template <class T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using KeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using CertPtr = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using BioPtr = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;

Error openssl_error(const std::string& what) {
  unsigned long code = ERR_get_error();
  char buffer[256] = "unknown error";
  if (code != 0) ERR_error_string_n(code, buffer, sizeof buffer);
  return Error{"cannot generate the TLS certificate (" + what + "): " + buffer};
}

KeyPtr make_key() { return KeyPtr(EVP_EC_gen("P-256")); }

bool add_extension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  if (!ext) return false;
  bool ok = X509_add_ext(cert, ext, -1) == 1;
  X509_EXTENSION_free(ext);
  return ok;
}

CertPtr make_cert(const std::string& common_name, EVP_PKEY* key, X509* issuer, EVP_PKEY* issuer_key, long days) {
  CertPtr cert(X509_new());
  if (!cert) return nullptr;
  X509_set_version(cert.get(), 2);
  unsigned char serial[16];
  RAND_bytes(serial, sizeof serial);
  serial[0] &= 0x7f; // positive
  BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
  BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get()));
  BN_free(bn);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), days * 24 * 3600);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("troupe"), -1, -1, 0);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(common_name.c_str()),
                             -1, -1, 0);
  X509_set_issuer_name(cert.get(), issuer ? X509_get_subject_name(issuer) : name);
  return cert;
}

std::string pem_of_cert(X509* cert) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(bio.get(), cert);
  char* data = nullptr;
  long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(size));
}

std::string pem_of_key(EVP_PKEY* key) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(size));
}

}  // namespace

Result<TlsMaterial> generate_self_signed(const std::vector<std::string>& dns_names,
                                         const std::vector<std::string>& ip_addresses) {
  KeyPtr ca_key = make_key();
  KeyPtr server_key = make_key();
  if (!ca_key || !server_key) return openssl_error("key generation");

  CertPtr ca = make_cert("troupe-apiserver-ca", ca_key.get(), nullptr, nullptr, 3650);
  if (!ca) return openssl_error("CA certificate");
  if (!add_extension(ca.get(), ca.get(), NID_basic_constraints, "critical,CA:TRUE") ||
      !add_extension(ca.get(), ca.get(), NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature") ||
      !add_extension(ca.get(), ca.get(), NID_subject_key_identifier, "hash"))
    return openssl_error("CA extensions");
  if (X509_sign(ca.get(), ca_key.get(), EVP_sha256()) == 0) return openssl_error("CA signature");

  CertPtr server = make_cert("troupe-apiserver", server_key.get(), ca.get(), ca_key.get(), 825);
  if (!server) return openssl_error("server certificate");
  std::string san;
  for (const auto& d : dns_names) san += (san.empty() ? "" : ",") + std::string("DNS:") + d;
  for (const auto& ip : ip_addresses) san += (san.empty() ? "" : ",") + std::string("IP:") + ip;
  if (!add_extension(server.get(), ca.get(), NID_basic_constraints, "critical,CA:FALSE") ||
      !add_extension(server.get(), ca.get(), NID_key_usage, "critical,digitalSignature,keyEncipherment") ||
      !add_extension(server.get(), ca.get(), NID_ext_key_usage, "serverAuth") ||
      !add_extension(server.get(), ca.get(), NID_authority_key_identifier, "keyid:always") ||
      (!san.empty() && !add_extension(server.get(), ca.get(), NID_subject_alt_name, san)))
    return openssl_error("server extensions");
  if (X509_sign(server.get(), ca_key.get(), EVP_sha256()) == 0) return openssl_error("server signature");

  return TlsMaterial{pem_of_cert(ca.get()), pem_of_cert(server.get()), pem_of_key(server_key.get())};
}

}  // namespace troupe::sim
