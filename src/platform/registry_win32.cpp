// The live registry of a Windows host, read-only.
#include <windows.h>

#include "core/text.hpp"
#include "platform/registry.hpp"
#include "platform/win32_text.hpp"

namespace gpudoctor {
namespace {

constexpr DWORD kMaxEntries = 10'000;  // a key with more subkeys or values is cut there

HKEY root_of(const std::string& full, std::string& rest) {
  struct Root {
    const char* name;
    HKEY key;
  };
  static const Root kRoots[] = {{"HKEY_LOCAL_MACHINE", HKEY_LOCAL_MACHINE},
                                {"HKEY_CURRENT_USER", HKEY_CURRENT_USER},
                                {"HKEY_USERS", HKEY_USERS},
                                {"HKEY_CLASSES_ROOT", HKEY_CLASSES_ROOT},
                                {"HKEY_CURRENT_CONFIG", HKEY_CURRENT_CONFIG}};
  for (const Root& r : kRoots) {
    std::string name = r.name;
    if (full == name || full.starts_with(name + "\\")) {
      rest = full.size() > name.size() ? full.substr(name.size() + 1) : std::string();
      return r.key;
    }
  }
  return nullptr;
}

Error reg_error(LONG code, const std::string& key) {
  return Error{code == ERROR_FILE_NOT_FOUND  ? ErrorKind::not_found
               : code == ERROR_ACCESS_DENIED ? ErrorKind::permission_denied
                                             : ErrorKind::io_error,
               win32::error_text(static_cast<DWORD>(code)), key, static_cast<int>(code)};
}

/// An open key, closed on every path.
class OpenKey {
 public:
  OpenKey() = default;
  OpenKey(const OpenKey&) = delete;
  OpenKey& operator=(const OpenKey&) = delete;
  ~OpenKey() {
    if (key_ != nullptr) ::RegCloseKey(key_);
  }
  HKEY* out() { return &key_; }
  [[nodiscard]] HKEY get() const { return key_; }

 private:
  HKEY key_ = nullptr;
};

Status open(std::string_view key, RegistryBits bits, OpenKey& out) {
  std::string full = full_registry_key(key);
  std::string rest;
  HKEY root = full.empty() ? nullptr : root_of(full, rest);
  if (root == nullptr) return Error{ErrorKind::invalid_data, "not a registry key", std::string(key)};
  REGSAM sam = KEY_READ | (bits == RegistryBits::wow32 ? KEY_WOW64_32KEY : KEY_WOW64_64KEY);
  LONG rc = ::RegOpenKeyExW(root, win32::widen(rest).c_str(), 0, sam, out.out());
  if (rc != ERROR_SUCCESS) return reg_error(rc, full);
  return Ok{};
}

std::string utf16_data(const std::vector<BYTE>& data, DWORD size) {
  std::wstring w(reinterpret_cast<const wchar_t*>(data.data()), size / sizeof(wchar_t));
  while (!w.empty() && w.back() == L'\0') w.pop_back();
  return win32::narrow(w);
}

class HostRegistry final : public Registry {
 public:
  [[nodiscard]] Result<std::vector<std::string>> subkeys(std::string_view key, RegistryBits bits) const override {
    OpenKey k;
    if (auto s = open(key, bits, k); !s) return s.error();
    std::vector<std::string> out;
    for (DWORD i = 0; i < kMaxEntries; ++i) {
      wchar_t name[256];  // a key name is at most 255 characters
      DWORD len = 256;
      LONG rc = ::RegEnumKeyExW(k.get(), i, name, &len, nullptr, nullptr, nullptr, nullptr);
      if (rc == ERROR_NO_MORE_ITEMS) break;
      if (rc != ERROR_SUCCESS) return reg_error(rc, std::string(key));
      out.push_back(win32::narrow(std::wstring(name, len)));
    }
    return out;
  }

  [[nodiscard]] Result<std::vector<RegistryValue>> values(std::string_view key, RegistryBits bits) const override {
    OpenKey k;
    if (auto s = open(key, bits, k); !s) return s.error();
    std::vector<RegistryValue> out;
    std::vector<BYTE> data(RegistryExport::kMaxValueBytes);
    for (DWORD i = 0; i < kMaxEntries; ++i) {
      wchar_t name[16384];  // a value name is at most 16,383 characters
      DWORD name_len = 16384;
      DWORD type = 0;
      DWORD size = static_cast<DWORD>(data.size());
      LONG rc = ::RegEnumValueW(k.get(), i, name, &name_len, nullptr, &type, data.data(), &size);
      if (rc == ERROR_NO_MORE_ITEMS) break;
      if (rc == ERROR_MORE_DATA) continue;  // larger than any value a probe reads
      if (rc != ERROR_SUCCESS) return reg_error(rc, std::string(key));
      RegistryValue v;
      v.name = win32::narrow(std::wstring(name, name_len));
      switch (type) {
        case REG_SZ:
        case REG_EXPAND_SZ:
          v.type = type == REG_SZ ? "REG_SZ" : "REG_EXPAND_SZ";
          v.text = utf16_data(data, size);
          break;
        case REG_MULTI_SZ: {
          v.type = "REG_MULTI_SZ";
          v.text = utf16_data(data, size);
          for (char& c : v.text) {
            if (c == '\0') c = '\n';
          }
          break;
        }
        case REG_DWORD:
        case REG_QWORD: {
          v.type = type == REG_DWORD ? "REG_DWORD" : "REG_QWORD";
          std::uint64_t x = 0;
          for (DWORD b = std::min<DWORD>(size, type == REG_DWORD ? 4 : 8); b-- > 0;) x = (x << 8) | data[b];
          v.number = x;
          v.text = std::to_string(x);
          break;
        }
        default: {
          v.type = type == REG_BINARY ? "REG_BINARY" : "REG_TYPE_" + std::to_string(type);
          static const char* kHex = "0123456789abcdef";
          for (DWORD b = 0; b < size; ++b) {
            v.text.push_back(kHex[data[b] >> 4]);
            v.text.push_back(kHex[data[b] & 15]);
          }
        }
      }
      out.push_back(std::move(v));
    }
    return out;
  }

  [[nodiscard]] std::string source() const override { return "the registry"; }
};

}  // namespace

std::unique_ptr<Registry> open_host_registry() {
  return std::make_unique<HostRegistry>();
}

}  // namespace gpudoctor
