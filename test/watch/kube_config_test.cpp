// Kubeconfig and in-cluster configuration: tables of good and bad inputs.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "test_data.hpp"
#include "test_pki.hpp"
#include "watch/base64.hpp"
#include "watch/kube_config.hpp"
#include "watch/server_url.hpp"
#include "watch/token_source.hpp"

using namespace troupe::watch;
using troupe::test::TempDir;

namespace {

// Sets or unsets an environment variable for the scope, restoring it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// Points the demo context at another user name.
std::string with_user(std::string config, const std::string& user) {
  const std::string from = "user: demo-user,";
  config.replace(config.find(from), from.size(), "user: " + user + ",");
  return config;
}

std::string kubeconfig(const std::string& cluster, const std::string& user, const std::string& extra_top = "") {
  return "apiVersion: v1\nkind: Config\ncurrent-context: demo\n" + extra_top +
         "clusters:\n- name: demo\n  cluster:\n" + cluster +
         "users:\n- name: demo-user\n  user:\n" + user +
         "contexts:\n- name: demo\n  context: {cluster: demo, user: demo-user, namespace: team-a}\n";
}

}  // namespace

TEST_CASE("base64 decoding", "[kube_config]") {
  struct Case {
    const char* input;
    const char* output;  // nullptr: must fail
  };
  const std::vector<Case> cases = {
      {"", ""},
      {"YQ==", "a"},
      {"YWI=", "ab"},
      {"YWJj", "abc"},
      {"YWJjZA", "abcd"},  // padding is optional
      {"YW\nJj\r\n ZA==", "abcd"},
      {"YQ", "a"},
      {"Y", nullptr},
      {"YQ=a", nullptr},
      {"YQ===", nullptr},
      {"Y*==", nullptr},
      {"YWJ=", "ab"},
  };
  for (const auto& c : cases) {
    INFO("input \"" << c.input << "\"");
    auto decoded = base64_decode(c.input);
    if (c.output == nullptr) {
      CHECK_FALSE(decoded.ok());
      if (!decoded) CHECK(decoded.message().find("base64") != std::string::npos);
    } else {
      REQUIRE(decoded.ok());
      CHECK(*decoded == c.output);
    }
  }
  const std::string pem = troupe::test::test_pki().ca_pem;
  CHECK(*base64_decode(troupe::test::base64_encode(pem)) == pem);
}

TEST_CASE("server URL parsing", "[kube_config]") {
  struct Case {
    const char* url;
    bool ok;
    bool tls;
    const char* host;
    const char* port;
    const char* base_path;
    const char* host_header;
  };
  const std::vector<Case> cases = {
      {"https://10.0.0.1:6443", true, true, "10.0.0.1", "6443", "", "10.0.0.1:6443"},
      {"http://127.0.0.1:8080", true, false, "127.0.0.1", "8080", "", "127.0.0.1:8080"},
      {"https://api.example.com", true, true, "api.example.com", "443", "", "api.example.com"},
      {"http://api.example.com/", true, false, "api.example.com", "80", "", "api.example.com"},
      {"https://rancher.test/k8s/clusters/c-1/", true, true, "rancher.test", "443", "/k8s/clusters/c-1", "rancher.test"},
      {"https://[::1]:6443", true, true, "::1", "6443", "", "[::1]:6443"},
      {"https://[fd00::1]", true, true, "fd00::1", "443", "", "[fd00::1]"},
      {"10.0.0.1:6443", true, true, "10.0.0.1", "6443", "", "10.0.0.1:6443"},
      {"ftp://x", false, false, "", "", "", ""},
      {"https://", false, false, "", "", "", ""},
      {"https://host:0", false, false, "", "", "", ""},
      {"https://host:70000", false, false, "", "", "", ""},
      {"https://host:12ab", false, false, "", "", "", ""},
      {"https://::1:6443", false, false, "", "", "", ""},
      {"https://[::1", false, false, "", "", "", ""},
      {"https://user@host", false, false, "", "", "", ""},
      {"https://host/?q=1", false, false, "", "", "", ""},
  };
  for (const auto& c : cases) {
    INFO("url " << c.url);
    auto url = parse_server_url(c.url);
    REQUIRE(url.ok() == c.ok);
    if (!c.ok) {
      CHECK(url.message().find(c.url) != std::string::npos);
      continue;
    }
    CHECK(url->tls == c.tls);
    CHECK(url->host == c.host);
    CHECK(url->port == c.port);
    CHECK(url->base_path == c.base_path);
    CHECK(url->host_header == c.host_header);
  }
  CHECK(join_host_port("fd00::10", "443") == "[fd00::10]:443");
  CHECK(join_host_port("10.96.0.1", "443") == "10.96.0.1:443");
}

TEST_CASE("kubeconfig: good configurations", "[kube_config]") {
  TempDir dir;
  const auto& pki = troupe::test::test_pki();
  const std::string ca_b64 = troupe::test::base64_encode(pki.ca_pem);
  dir.write("ca.crt", pki.ca_pem);
  dir.write("client.crt", pki.client_cert_pem);
  dir.write("client.key", pki.client_key_pem);
  dir.write("token", "file-token\n");

  SECTION("token and inline CA") {
    const auto path = dir.write("config", kubeconfig("    server: https://127.0.0.1:6443\n"
                                                     "    certificate-authority-data: " + ca_b64 + "\n",
                                                     "    token: abc123\n"));
    auto config = load_kubeconfig(path);
    REQUIRE(config.ok());
    CHECK(config->server == "https://127.0.0.1:6443");
    CHECK(config->ca_pem == pki.ca_pem);
    CHECK(config->token == "abc123");
    CHECK(config->default_namespace == "team-a");
    CHECK_FALSE(config->insecure_skip_tls_verify);
    CHECK(config->source.find(path) != std::string::npos);
  }
  SECTION("file references are relative to the kubeconfig") {
    const auto path = dir.write("config", kubeconfig("    server: https://apiserver.test:6443\n"
                                                     "    certificate-authority: ca.crt\n"
                                                     "    tls-server-name: apiserver.test\n",
                                                     "    client-certificate: client.crt\n"
                                                     "    client-key: " + dir.path() + "/client.key\n"
                                                     "    tokenFile: token\n"));
    auto config = load_kubeconfig(path);
    REQUIRE(config.ok());
    CHECK(config->ca_pem == pki.ca_pem);
    CHECK(config->client_cert_pem == pki.client_cert_pem);
    CHECK(config->client_key_pem == pki.client_key_pem);
    CHECK(config->tls_server_name == "apiserver.test");
    CHECK(config->token_file == dir.path() + "/token");
    CHECK(config->token.empty());
  }
  SECTION("client certificate data, insecure, plain http") {
    const auto path = dir.write(
        "config", kubeconfig("    server: http://127.0.0.1:8080\n    insecure-skip-tls-verify: true\n",
                             "    client-certificate-data: " + troupe::test::base64_encode(pki.client_cert_pem) +
                                 "\n    client-key-data: " + troupe::test::base64_encode(pki.client_key_pem) + "\n"));
    auto config = load_kubeconfig(path);
    REQUIRE(config.ok());
    CHECK(config->insecure_skip_tls_verify);
    CHECK(config->client_cert_pem == pki.client_cert_pem);
  }
  SECTION("token wins over tokenFile") {
    const auto path = dir.write("config", kubeconfig("    server: http://127.0.0.1:1\n",
                                                     "    token: t\n    tokenFile: does-not-exist\n"));
    auto config = load_kubeconfig(path);
    REQUIRE(config.ok());
    CHECK(config->token == "t");
    CHECK(config->token_file.empty());
  }
  SECTION("context override and a context without user or namespace") {
    const auto path = dir.write("config",
                                "current-context: one\n"
                                "clusters:\n- name: a\n  cluster: {server: 'http://a:1'}\n"
                                "- name: b\n  cluster: {server: 'http://b:2'}\n"
                                "contexts:\n- name: one\n  context: {cluster: a}\n"
                                "- name: two\n  context: {cluster: b}\n");
    auto one = load_kubeconfig(path);
    REQUIRE(one.ok());
    CHECK(one->server == "http://a:1");
    CHECK(one->default_namespace == "default");
    auto two = load_kubeconfig(path, "two");
    REQUIRE(two.ok());
    CHECK(two->server == "http://b:2");
  }
  SECTION("JSON kubeconfig") {
    const auto path = dir.write(
        "config.json",
        R"({"current-context":"c","clusters":[{"name":"k","cluster":{"server":"https://[::1]:6443","insecure-skip-tls-verify":true}}],)"
        R"("users":[{"name":"u","user":{"token":"x"}}],"contexts":[{"name":"c","context":{"cluster":"k","user":"u"}}]})");
    auto config = load_kubeconfig(path);
    REQUIRE(config.ok());
    CHECK(config->server == "https://[::1]:6443");
  }
}

TEST_CASE("kubeconfig: bad configurations name the file and the field", "[kube_config]") {
  TempDir dir;
  struct Case {
    const char* name;
    std::string content;
    std::vector<std::string> message_parts;
  };
  const std::string server = "    server: https://127.0.0.1:6443\n";
  const std::vector<Case> cases = {
      {"not YAML", "clusters: [unclosed\n", {"invalid YAML"}},
      {"top level is a list", "- a\n- b\n", {"top level must be a mapping"}},
      {"no current context", "clusters: []\n", {"current-context is not set"}},
      {"unknown context", "current-context: nope\ncontexts: []\n", {"context \"nope\" not found"}},
      {"clusters not a list", "current-context: c\nclusters: {a: 1}\n", {"clusters: must be a list"}},
      {"entry without name", "current-context: c\nclusters:\n- cluster: {server: x}\n", {"clusters[0]", "name"}},
      {"context without cluster",
       "current-context: c\ncontexts:\n- name: c\n  context: {user: u}\n",
       {"context \"c\"", "cluster: must be set"}},
      {"missing cluster", "current-context: c\ncontexts:\n- name: c\n  context: {cluster: gone}\n",
       {"cluster \"gone\" not found"}},
      {"missing user", with_user(kubeconfig(server, "    token: x\n"), "ghost"), {"user \"ghost\" not found"}},
      {"no server", kubeconfig("    insecure-skip-tls-verify: true\n", "    token: x\n"),
       {"cluster \"demo\"", "server: must be set"}},
      {"bad server", kubeconfig("    server: gopher://x\n", "    token: x\n"), {"server:", "unsupported scheme"}},
      {"bad base64", kubeconfig(server + "    certificate-authority-data: '@@@'\n", "    token: x\n"),
       {"certificate-authority-data", "base64"}},
      {"missing CA file", kubeconfig(server + "    certificate-authority: nowhere.crt\n", "    token: x\n"),
       {"certificate-authority", "nowhere.crt", "cannot open"}},
      {"insecure with CA",
       kubeconfig(server + "    insecure-skip-tls-verify: true\n    certificate-authority-data: " +
                      troupe::test::base64_encode("x") + "\n",
                  "    token: x\n"),
       {"insecure-skip-tls-verify cannot be combined"}},
      {"insecure not a bool", kubeconfig(server + "    insecure-skip-tls-verify: maybe\n", "    token: x\n"),
       {"insecure-skip-tls-verify: must be true or false"}},
      {"token not a string", kubeconfig(server, "    token: [a, b]\n"), {"user \"demo-user\"", "token: must be a string"}},
      {"cert without key",
       kubeconfig(server, "    client-certificate-data: " + troupe::test::base64_encode("x") + "\n"),
       {"client-certificate and client-key must be given together"}},
      {"exec plugin", kubeconfig(server, "    exec: {command: aws}\n"), {"exec: not supported"}},
      {"basic auth", kubeconfig(server, "    username: admin\n"), {"username: not supported"}},
      {"missing token file", kubeconfig(server, "    tokenFile: /nonexistent/token\n"),
       {"tokenFile", "/nonexistent/token"}},
      {"proxy", kubeconfig(server + "    proxy-url: http://proxy:3128\n", "    token: x\n"),
       {"proxy-url: proxies are not supported"}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const std::string path = dir.write("config", c.content);
    auto config = load_kubeconfig(path);
    REQUIRE_FALSE(config.ok());
    CHECK(config.message().find(path) != std::string::npos);
    for (const auto& part : c.message_parts) {
      INFO("message: " << config.message());
      CHECK(config.message().find(part) != std::string::npos);
    }
  }
  auto missing = load_kubeconfig(dir.path() + "/absent");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.message().find("does not exist") != std::string::npos);
}

TEST_CASE("kubeconfig: several files merge with the first definition winning", "[kube_config]") {
  TempDir dir;
  const auto first = dir.write("a", "current-context: ctx\n"
                                    "clusters:\n- name: shared\n  cluster: {server: 'http://first:1'}\n");
  const auto second = dir.write("b", "current-context: other\n"
                                     "clusters:\n- name: shared\n  cluster: {server: 'http://second:2'}\n"
                                     "users:\n- name: u\n  user: {token: from-b}\n"
                                     "contexts:\n- name: ctx\n  context: {cluster: shared, user: u}\n");
  auto merged = load_kubeconfig_files({dir.path() + "/missing", first, second});
  REQUIRE(merged.ok());
  CHECK(merged->server == "http://first:1");
  CHECK(merged->token == "from-b");
  CHECK_FALSE(load_kubeconfig_files({dir.path() + "/x", dir.path() + "/y"}).ok());
}

TEST_CASE("in-cluster configuration", "[kube_config]") {
  TempDir dir;
  InClusterPaths paths;
  paths.token_file = dir.write("token", "sa-token\n");
  paths.ca_file = dir.write("ca.crt", troupe::test::test_pki().ca_pem);
  paths.namespace_file = dir.write("namespace", "kube-system\n");

  SECTION("IPv4 service address") {
    ScopedEnv host("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    ScopedEnv port("KUBERNETES_SERVICE_PORT", "443");
    auto config = load_in_cluster_config(paths);
    REQUIRE(config.ok());
    CHECK(config->server == "https://10.96.0.1:443");
    CHECK(config->token_file == paths.token_file);
    CHECK(config->default_namespace == "kube-system");
    CHECK(config->ca_pem.find("BEGIN CERTIFICATE") != std::string::npos);
  }
  SECTION("IPv6 hosts are bracketed; the namespace file is optional") {
    ScopedEnv host("KUBERNETES_SERVICE_HOST", "fd00::1");
    ScopedEnv port("KUBERNETES_SERVICE_PORT", "6443");
    paths.namespace_file = dir.path() + "/none";
    auto config = load_in_cluster_config(paths);
    REQUIRE(config.ok());
    CHECK(config->server == "https://[fd00::1]:6443");
    CHECK(config->default_namespace == "default");
  }
  SECTION("not in a cluster") {
    ScopedEnv host("KUBERNETES_SERVICE_HOST", nullptr);
    ScopedEnv port("KUBERNETES_SERVICE_PORT", "443");
    auto config = load_in_cluster_config(paths);
    REQUIRE_FALSE(config.ok());
    CHECK(config.message().find("KUBERNETES_SERVICE_HOST") != std::string::npos);
  }
  SECTION("missing token file") {
    ScopedEnv host("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    ScopedEnv port("KUBERNETES_SERVICE_PORT", "443");
    paths.token_file = dir.path() + "/no-token";
    auto config = load_in_cluster_config(paths);
    REQUIRE_FALSE(config.ok());
    CHECK(config.message().find(paths.token_file) != std::string::npos);
  }
  SECTION("missing CA file") {
    ScopedEnv host("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    ScopedEnv port("KUBERNETES_SERVICE_PORT", "443");
    paths.ca_file = dir.path() + "/no-ca";
    auto config = load_in_cluster_config(paths);
    REQUIRE_FALSE(config.ok());
    CHECK(config.message().find("CA file") != std::string::npos);
  }
}

TEST_CASE("resolve_config order: flag, $KUBECONFIG, in-cluster, ~/.kube/config", "[kube_config]") {
  TempDir dir;
  const auto flag_file = dir.write("flag", "current-context: c\nclusters:\n- name: k\n  cluster: {server: 'http://flag:1'}\n"
                                           "contexts:\n- name: c\n  context: {cluster: k}\n");
  const auto env_file = dir.write("env", "current-context: c\nclusters:\n- name: k\n  cluster: {server: 'http://env:1'}\n"
                                         "contexts:\n- name: c\n  context: {cluster: k}\n");
  REQUIRE(::mkdir((dir.path() + "/.kube").c_str(), 0700) == 0);
  dir.write(".kube/config", "current-context: c\nclusters:\n- name: k\n  cluster: {server: 'http://home:1'}\n"
                            "contexts:\n- name: c\n  context: {cluster: k}\n");
  ResolveOptions options;
  options.home = dir.path();
  options.in_cluster.token_file = dir.write("token", "t");
  options.in_cluster.ca_file = dir.write("ca.crt", troupe::test::test_pki().ca_pem);
  options.in_cluster.namespace_file = dir.path() + "/none";

  ScopedEnv kubeconfig_env("KUBECONFIG", (dir.path() + "/missing:" + env_file).c_str());
  ScopedEnv host("KUBERNETES_SERVICE_HOST", "10.0.0.9");
  ScopedEnv port("KUBERNETES_SERVICE_PORT", "443");
  CHECK(resolve_config(flag_file, options)->server == "http://flag:1");
  CHECK(resolve_config("", options)->server == "http://env:1");
  {
    ScopedEnv no_env("KUBECONFIG", nullptr);
    CHECK(resolve_config("", options)->server == "https://10.0.0.9:443");
    ScopedEnv no_host("KUBERNETES_SERVICE_HOST", nullptr);
    CHECK(resolve_config("", options)->server == "http://home:1");
    options.home = dir.path() + "/nowhere";
    auto none = resolve_config("", options);
    REQUIRE_FALSE(none.ok());
    CHECK(none.message().find("no cluster configuration") != std::string::npos);
  }
  auto bad_flag = resolve_config(dir.path() + "/nope", options);
  REQUIRE_FALSE(bad_flag.ok());
  CHECK(bad_flag.message().find("/nope") != std::string::npos);
}

TEST_CASE("file token source re-reads after the refresh period and after a 401", "[kube_config]") {
  TempDir dir;
  const auto path = dir.write("token", "one\n");
  auto now = TokenSource::Clock::now();
  auto source = TokenSource::from_file(path, std::chrono::seconds(60), [&] { return now; });
  REQUIRE(source.ok());
  CHECK((*source)->token() == "one");
  dir.write("token", "two");
  now += std::chrono::seconds(59);
  CHECK((*source)->token() == "one");  // still cached
  now += std::chrono::seconds(1);
  CHECK((*source)->token() == "two");
  dir.write("token", "three");
  CHECK((*source)->refresh_after_unauthorized());
  CHECK((*source)->token() == "three");
  CHECK_FALSE((*source)->refresh_after_unauthorized());  // unchanged: retrying will not help
  dir.write("token", "");
  now += std::chrono::seconds(120);
  CHECK((*source)->token() == "three");  // an empty file mid-rotation keeps the old token

  CHECK_FALSE(TokenSource::from_file(dir.path() + "/absent").ok());
  CHECK_FALSE(TokenSource::fixed("x")->refresh_after_unauthorized());
}
