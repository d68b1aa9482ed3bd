// OpenVINO found, opened and called (runtime.hpp, focr_openvino.h).
#include "openvino/runtime.hpp"

#include <dlfcn.h>
#include <malloc.h>
#include <sys/stat.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>

#include "entry/media_calls.hpp"
#include "focr_common/status.hpp"
#include "focr_openvino.h"

namespace focr::ov {

namespace {

/// The wheel's folder in this checkout's build tree, where `make openvino` unpacks it: the package's
/// folder is compiled in by Package.swift (FOCR_PACKAGE_DIRECTORY).
std::string build_tree_folder() {
#ifdef FOCR_PACKAGE_DIRECTORY
    return std::string(FOCR_PACKAGE_DIRECTORY) + "/.build/openvino/lib";
#else
    return "";
#endif
}

bool is_file(const std::string &path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string last_error(const Api &api) {
    const char *m = api.ov_get_last_err_msg ? api.ov_get_last_err_msg() : nullptr;
    std::string s = m && *m ? m : "no message";
    // OpenVINO's messages end with a newline (and spaces); the message is kept whole otherwise.
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

/// Loads the library from the first folder that has it, resolves every call, makes the core.
std::unique_ptr<Api> load(Failure &failure) {
    const std::vector<std::string> folders = search_folders();
    std::string tried;
    void *handle = nullptr;
    std::string path;
    for (const std::string &folder : folders) {
        const std::string candidate = folder + "/" FOCR_OPENVINO_C_LIBRARY;
        tried += (tried.empty() ? "" : ", ") + candidate;
        if (!is_file(candidate)) continue;
        // RTLD_LOCAL: OpenVINO's symbols stay out of the process's namespace. Never closed:
        // its thread pool (TBB) outlives any handle.
        handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) {
            const char *e = ::dlerror();
            failure = {FOCR_E_RUNTIME_MISSING, "OpenVINO: " + candidate + " is there but cannot be loaded (" +
                                                   (e ? e : "dlopen failed") + "); `make openvino` installs it again"};
            return nullptr;
        }
        path = candidate;
        break;
    }
    if (handle == nullptr) {
        failure = {FOCR_E_RUNTIME_MISSING,
                   "OpenVINO, the runtime of the neural engines, is not installed: " FOCR_OPENVINO_C_LIBRARY
                   " not found (looked for " + tried + "); `make openvino` installs it into the build tree, or "
                   "set FRAMEOCR_OPENVINO_DIR to the folder that holds it (docs/openvino.md)"};
        return nullptr;
    }
    auto api = std::make_unique<Api>();
    api->library = path;
#define FOCR_OV_RESOLVE(ret, name, params)                                                                     \
    api->name = reinterpret_cast<ret(*) params>(::dlsym(handle, #name));                                      \
    if (api->name == nullptr) {                                                                                \
        failure = {FOCR_E_RUNTIME_MISSING, "OpenVINO: " + path + " lacks " #name " (FrameOCR needs OpenVINO " \
                                           FOCR_OPENVINO_VERSION "'s C API; `make openvino` installs it)"};    \
        return nullptr;                                                                                        \
    }
    FOCR_OV_CALLS(FOCR_OV_RESOLVE)
#undef FOCR_OV_RESOLVE
    ov_version_t version{};
    if (api->ov_get_openvino_version(&version) == OK) {
        api->version = version.buildNumber ? version.buildNumber : "";
        api->ov_version_free(&version);
    }
    if (api->ov_core_create(&api->core) != OK || api->core == nullptr) {
        failure = {FOCR_E_INFERENCE, "OpenVINO: the core cannot be made: " + last_error(*api)};
        return nullptr;
    }
    return api;
}

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::vector<std::string> search_folders() {
    // A folder the user names is the only one: another release found elsewhere is never taken
    // in its place.
    if (const char *dir = std::getenv("FRAMEOCR_OPENVINO_DIR"); dir != nullptr && *dir != '\0') return {dir};
    std::vector<std::string> folders;
    if (std::string tree = build_tree_folder(); !tree.empty()) folders.push_back(tree);
    folders.push_back(FOCR_OPENVINO_SYSTEM_FOLDER);
    return folders;
}

const Api *runtime(Failure *failure) {
    static std::once_flag once;
    // Never destroyed: OpenVINO's core and thread pool outlive every static destructor that could
    // still hold a network, and the core stays reachable to the end (no leak reported).
    static const Api *api = nullptr;
    static Failure first(FOCR_OK, "");
    std::call_once(once, [] {
        try {
            api = load(first).release();
        } catch (const std::exception &e) {
            first = Failure(FOCR_E_RUNTIME_MISSING, std::string("OpenVINO: ") + e.what());
        }
    });
    if (!api && failure) *failure = first;
    return api;
}

std::vector<std::string> available_devices() {
    Failure failure(FOCR_OK, "");
    const Api *api = runtime(&failure);
    if (api == nullptr) throw failure;
    ov_available_devices_t list{};
    if (api->ov_core_get_available_devices(api->core, &list) != OK)
        throw Failure(FOCR_E_INFERENCE, "OpenVINO: the devices cannot be listed: " + last_error(*api));
    std::vector<std::string> devices(list.devices, list.devices + list.size);
    api->ov_available_devices_free(&list);
    return devices;
}

/// default_cache_dir()'s search.
static std::string find_cache_dir() {
    const char *env = std::getenv("FRAMEOCR_OPENVINO_CACHE");
    std::string dir;
    if (env != nullptr) {
        const std::string v = env;
        if (v.empty() || v == "0" || v == "off" || v == "no") return "";
        dir = v;
    } else if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/') {
        dir = std::string(xdg) + "/frameocr/openvino";
    } else if (const char *home = std::getenv("HOME"); home != nullptr && *home == '/') {
        dir = std::string(home) + "/.cache/frameocr/openvino";
    } else {
        return "";
    }
    // Made here, each missing folder in turn; a folder that cannot be made or written means no
    // cache (every start compiles), never an error.
    for (size_t i = 1; i <= dir.size(); ++i)
        if (i == dir.size() || dir[i] == '/') ::mkdir(dir.substr(0, i).c_str(), 0755);
    return ::access(dir.c_str(), W_OK | X_OK) == 0 ? dir : "";
}

std::string default_cache_dir() {
    // Read and made once per process: every network's options name it.
    static const std::string once = find_cache_dir();
    return once;
}

namespace {
std::mutex config_mutex;
focr_openvino_config current_config{1, 0, FOCR_PRECISION_AUTO};
}  // namespace

focr_openvino_config configuration() {
    std::lock_guard<std::mutex> lock(config_mutex);
    return current_config;
}

void configure(const focr_openvino_config &config) {
    std::lock_guard<std::mutex> lock(config_mutex);
    current_config = config;
}

const std::string &cpu_capabilities() {
    static const std::string capabilities = [] {
        const Api *api = runtime(nullptr);
        if (api == nullptr) return std::string();
        char *value = nullptr;
        if (api->ov_core_get_property(api->core, "CPU", "OPTIMIZATION_CAPABILITIES", &value) != OK || !value)
            return std::string();
        std::string s = value;
        api->ov_free(value);
        return s;
    }();
    return capabilities;
}

bool cpu_has_bf16() {
    const std::string &c = cpu_capabilities();
    // Space-separated words: "FP32 BF16 INT8 …".
    for (size_t start = 0; start < c.size();) {
        size_t end = c.find(' ', start);
        if (end == std::string::npos) end = c.size();
        if (c.compare(start, end - start, "BF16") == 0) return true;
        start = end + 1;
    }
    return false;
}

const char *precision_for(Role role, int32_t precision, bool has_bf16) {
    if (!has_bf16 || precision == FOCR_PRECISION_F32) return "f32";
    if (precision == FOCR_PRECISION_BF16) return "bf16";
    return role == Role::detector ? "bf16" : "f32";
}

Options options_for(Role role, const std::string &device) {
    const focr_openvino_config c = configuration();
    Options options;
    options.device = device;
    // bf16 is the CPU's question; another device keeps f32 (its plug-in chooses its own).
    options.precision = device.rfind("CPU", 0) == 0 ? precision_for(role, c.precision, cpu_has_bf16()) : "f32";
    options.threads = c.threads;
    options.streams = role == Role::detector ? 1 : c.workers;
    return options;
}

/// A model compiled once per process for one set of options, shared by every network made from
/// it (each has its own infer request): the weights and the compiled kernels are held once.
struct Compiled {
    const Api *api;
    ov_compiled_model_t *model = nullptr;
    double compile_ms = 0;
    ~Compiled() {
        if (model) api->ov_compiled_model_free(model);
    }
};

namespace {

/// The options as OpenVINO's properties, {key, value} strings.
std::vector<std::pair<std::string, std::string>> properties(const Options &options) {
    std::vector<std::pair<std::string, std::string>> values;
    if (options.device.rfind("CPU", 0) == 0) {
        // Inside someone else's process: no thread pinned to a core (focr_openvino.h, "Threads").
        values.emplace_back("ENABLE_CPU_PINNING", "NO");
        // The plug-in's cache of kernels compiled per input shape grows with every shape
        // (155 MB → 1.36 GB over 275 line widths, docs/openvino.md): the widths come in steps,
        // and the cache is bounded.
        values.emplace_back("CPU_RUNTIME_CACHE_CAPACITY", std::to_string(kRuntimeCacheCapacity));
    }
    values.emplace_back("INFERENCE_PRECISION_HINT", options.precision);
    values.emplace_back("NUM_STREAMS", std::to_string(options.streams < 1 ? 1 : options.streams));
    if (options.threads > 0) values.emplace_back("INFERENCE_NUM_THREADS", std::to_string(options.threads));
    if (!options.cache_dir.empty()) values.emplace_back("CACHE_DIR", options.cache_dir);
    return values;
}

/// The compiled model for `path` and `options`: the one already made in this process when it is
/// still held (the file unchanged since: its size and modification time are in the key), else
/// compiled now.
std::shared_ptr<Compiled> compiled(const Api &api, const std::string &path, const Options &options) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) throw Failure{FOCR_E_IO, path + ": no such model file"};
    const auto values = properties(options);
    std::string key = path + '\n' + std::to_string(st.st_size) + '\n' + std::to_string(st.st_mtim.tv_sec) + '.' +
                      std::to_string(st.st_mtim.tv_nsec) + '\n' + options.device;
    for (const auto &[k, v] : values) key += '\n' + k + '=' + v;
    static std::mutex mutex;
    static std::map<std::string, std::weak_ptr<Compiled>> made;
    // One compile at a time: a second handle of the same model waits for the first's and shares it.
    std::lock_guard<std::mutex> lock(mutex);
    if (auto found = made[key].lock()) return found;
    const auto start = std::chrono::steady_clock::now();
    std::vector<ov_property_t> props;
    for (const auto &[k, v] : values) props.push_back({k.c_str(), v.c_str()});
    auto c = std::make_shared<Compiled>();
    c->api = &api;
    if (api.ov_core_compile_model_from_file_props(api.core, path.c_str(), options.device.c_str(), props.size(),
                                                  props.data(), &c->model) != OK) {
        c->model = nullptr;
        throw Failure{FOCR_E_INFERENCE, path + ": OpenVINO cannot compile it for " + options.device + ": " +
                                            last_error(api)};
    }
    c->compile_ms = ms_since(start);
    for (auto it = made.begin(); it != made.end();) it = it->second.expired() ? made.erase(it) : std::next(it);
    made[key] = c;
    return c;
}

}  // namespace

Network::Network(const std::string &model_path, const Options &options) {
    Failure failure(FOCR_OK, "");
    api_ = runtime(&failure);
    if (api_ == nullptr) throw failure;
    const auto start = std::chrono::steady_clock::now();
    compiled_ = compiled(*api_, model_path, options);
    if (api_->ov_compiled_model_create_infer_request(compiled_->model, &request_) != OK)
        throw Failure{FOCR_E_INFERENCE, model_path + ": OpenVINO cannot make an infer request: " + last_error(*api_)};
    compile_ms_ = ms_since(start);
}

Network::~Network() {
    if (request_) api_->ov_infer_request_free(request_);
}

const float *Network::run(float *input, const std::vector<int64_t> &shape, std::vector<int64_t> &output_shape) {
    // The same buffer at the same shape as the last run (a live stream's frames, a detector's
    // bucket): the request still holds the tensor over it, which reads the buffer as it is now.
    if (input != last_input_ || shape != last_shape_) set_input(input, shape);
    ov_status_e status = api_->ov_infer_request_infer(request_);
    if (status != OK)
        throw Failure{FOCR_E_INFERENCE, "OpenVINO: inference on " + shape_text(shape) + " failed: " + last_error(*api_)};
    // A shape that pushed another out of the plug-in's runtime cache: what that one held is free,
    // in whichever of malloc's arenas the plug-in's threads used, and stays resident until given
    // back (measured: 1,000 lines of ~100 widths on a busy 2-core machine, resident memory grew
    // 79 MB after the first 100 without this, 8 MB with it; TextLineRecognizerMemoryTests).
    if (remember(shape)) ::malloc_trim(0);
    return output(output_shape);
}

bool Network::remember(const std::vector<int64_t> &shape) {
    const auto seen = std::find(shapes_.begin(), shapes_.end(), shape);
    if (seen != shapes_.end()) {
        std::rotate(shapes_.begin(), seen, seen + 1);
        return false;
    }
    shapes_.insert(shapes_.begin(), shape);
    if (shapes_.size() <= (size_t)kRuntimeCacheCapacity) return false;
    shapes_.pop_back();
    return true;
}

void Network::set_input(float *input, const std::vector<int64_t> &shape) {
    last_input_ = nullptr;
    ov_shape_t in_shape{};
    if (api_->ov_shape_create((int64_t)shape.size(), shape.data(), &in_shape) != OK)
        throw Failure{FOCR_E_INFERENCE, "OpenVINO: input shape " + shape_text(shape) + ": " + last_error(*api_)};
    ov_tensor_t *tensor = nullptr;
    const ov_status_e made = api_->ov_tensor_create_from_host_ptr(F32, in_shape, input, &tensor);
    api_->ov_shape_free(&in_shape);
    if (made != OK) throw Failure{FOCR_E_INFERENCE, "OpenVINO: input tensor " + shape_text(shape) + ": " + last_error(*api_)};
    const ov_status_e status = api_->ov_infer_request_set_input_tensor(request_, tensor);
    // The request keeps its own reference to the input until the next one is set.
    api_->ov_tensor_free(tensor);
    if (status != OK)
        throw Failure{FOCR_E_INFERENCE, "OpenVINO: input " + shape_text(shape) + ": " + last_error(*api_)};
    last_input_ = input;
    last_shape_ = shape;
}

const float *Network::output(std::vector<int64_t> &output_shape) {
    ov_tensor_t *output = nullptr;
    if (api_->ov_infer_request_get_output_tensor(request_, &output) != OK)
        throw Failure{FOCR_E_INFERENCE, "OpenVINO: no output: " + last_error(*api_)};
    ov_shape_t out{};
    void *data = nullptr;
    ov_element_type_e type = DYNAMIC;
    ov_status_e status = api_->ov_tensor_get_element_type(output, &type);
    if (status == OK && type != F32) {
        api_->ov_tensor_free(output);
        throw Failure{FOCR_E_INFERENCE, "OpenVINO: the output's element type is " + std::to_string((int)type) +
                                            ", not f32 (" + std::to_string((int)F32) + ")"};
    }
    if (status == OK) status = api_->ov_tensor_get_shape(output, &out);
    if (status == OK) {
        output_shape.assign(out.dims, out.dims + out.rank);
        api_->ov_shape_free(&out);
        status = api_->ov_tensor_data(output, &data);
    }
    api_->ov_tensor_free(output);  // the request owns the data; this frees the handle only
    if (status != OK || data == nullptr)
        throw Failure{FOCR_E_INFERENCE, "OpenVINO: the output cannot be read: " + last_error(*api_)};
    return static_cast<const float *>(data);
}

cv::Mat Network::run(cv::Mat &blob) {
    if (blob.type() != CV_32F || !blob.isContinuous() || blob.dims < 1)
        throw Failure(FOCR_E_INTERNAL, "OpenVINO: the input is not a continuous f32 blob");
    std::vector<int64_t> in(blob.size.p, blob.size.p + blob.dims), out;
    const float *data = run(blob.ptr<float>(), in, out);
    std::vector<int> sizes;
    for (const int64_t d : out) {
        if (d < 0 || d > INT32_MAX) throw Failure(FOCR_E_INFERENCE, "OpenVINO: output shape " + shape_text(out));
        sizes.push_back((int)d);
    }
    if (sizes.empty()) sizes.push_back(1);
    return cv::Mat((int)sizes.size(), sizes.data(), CV_32F, const_cast<float *>(data));
}

std::string shape_text(const std::vector<int64_t> &shape) {
    std::string s;
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? "×" : "") + std::to_string(shape[i]);
    return s.empty() ? "scalar" : s;
}

}  // namespace focr::ov

extern "C" focr_status focr_media_openvino_runtime(focr_openvino_info *info) {
    return focr::guarded("openvino_runtime", [&]() -> focr_status {
        if (info == nullptr) return focr::fail(FOCR_E_INVALID_ARGUMENT, "openvino_runtime: info is NULL");
        static const std::string folders = [] {
            std::string s;
            for (const std::string &f : focr::ov::search_folders()) s += (s.empty() ? "" : ":") + f;
            return s;
        }();
        focr::ov::Failure failure(FOCR_OK, "");
        const focr::ov::Api *api = focr::ov::runtime(&failure);
        info->loaded = api != nullptr;
        info->library = api ? api->library.c_str() : "";
        info->version = api ? api->version.c_str() : "";
        info->folders = folders.c_str();
        info->capabilities = focr::ov::cpu_capabilities().c_str();
        static const std::string devices = [api] {
            std::string s;
            if (api == nullptr) return s;
            try {
                for (const std::string &d : focr::ov::available_devices()) s += (s.empty() ? "" : " ") + d;
            } catch (const std::exception &) {
            }
            return s;
        }();
        info->devices = devices.c_str();
        return api ? FOCR_OK : focr::fail(failure.status, failure.what());
    });
}

extern "C" focr_status focr_media_openvino_configure(const focr_openvino_config *config) {
    return focr::guarded("openvino_configure", [&]() -> focr_status {
        if (config == nullptr) return focr::fail(FOCR_E_INVALID_ARGUMENT, "openvino_configure: config is NULL");
        if (config->workers < 1 || config->workers > 256)
            return focr::fail(FOCR_E_INVALID_ARGUMENT,
                              "openvino_configure: workers " + std::to_string(config->workers) + " not in 1…256");
        if (config->threads < 0 || config->threads > 1024)
            return focr::fail(FOCR_E_INVALID_ARGUMENT,
                              "openvino_configure: threads " + std::to_string(config->threads) + " not in 0…1024");
        if (config->precision != FOCR_PRECISION_AUTO && config->precision != FOCR_PRECISION_F32 &&
            config->precision != FOCR_PRECISION_BF16)
            return focr::fail(FOCR_E_INVALID_ARGUMENT, "openvino_configure: precision " +
                                                           std::to_string(config->precision) +
                                                           " is not 0 (auto), 1 (f32) or 2 (bf16)");
        focr::ov::configure(*config);
        return FOCR_OK;
    });
}

extern "C" focr_status focr_media_openvino_configuration(focr_openvino_config *config) {
    return focr::guarded("openvino_configuration", [&]() -> focr_status {
        if (config == nullptr) return focr::fail(FOCR_E_INVALID_ARGUMENT, "openvino_configuration: config is NULL");
        *config = focr::ov::configuration();
        return FOCR_OK;
    });
}
