// An exact perceptron speaking novikoff's diff protocol, version 1 (docs/howto/protocol.md).
//
// Reads one request on stdin, runs the perceptron with GMP rationals (every decision exact),
// writes one response on stdout. It implements every declared semantics of the request:
// tie_rule, margin, learning_rate, initial_weights, order (natural, given, shuffle-v1),
// stop and precision (float32: the inputs rounded to float32 first, then the same exact run).
//
// Build:  g++ -O2 -std=c++17 -o perceptron perceptron.cpp -lgmpxx -lgmp
// Planted bugs, one compile flag each (tests/test_diff_command.py builds them):
//   -DBUG_TIE     no update on a tie (y w.x~ == margin): "<" for "<="
//   -DBUG_BIAS    the bias weight is never updated
//   -DBUG_LAST    the last sample of every epoch is skipped
//   -DBUG_EPOCHS  reports one epoch more than it ran
//   -DBUG_HANG    sleeps forever (a native call that never returns)
//   -DBUG_CRASH   dereferences a null pointer when a sample is all zeros
//   -DBUG_STDOUT  prints a debug line to stdout before the response
//   -DNOISY       correct, and chatty on stderr (its output is shown, never parsed)
#include <gmpxx.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

struct Request {
    std::map<std::string, std::vector<std::string>> keys;
    std::vector<std::vector<mpq_class>> X;
    std::vector<int> y;
};

mpq_class number(const std::string& token) {
    mpq_class q(token, 10);  // "p" or "p/q", as the protocol writes exact numbers
    q.canonicalize();
    return q;
}

std::uint64_t splitmix64(std::uint64_t& state) {
    state += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// The shuffle-v1 protocol: epoch e of seed s.
std::vector<std::size_t> shuffle_v1(std::uint64_t seed, std::uint64_t epoch, std::size_t m) {
    std::uint64_t state = (seed << 32) + epoch;
    std::vector<std::size_t> perm(m);
    for (std::size_t i = 0; i < m; ++i) perm[i] = i;
    for (std::size_t i = m; i-- > 1;) {
        std::size_t j = static_cast<std::size_t>(splitmix64(state) % (i + 1));
        std::swap(perm[i], perm[j]);
    }
    return perm;
}

bool read_request(std::istream& in, Request& req, std::string& error) {
    std::string line;
    bool header = false, ended = false;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string key;
        if (!(words >> key) || key[0] == '#') continue;
        if (!header) {
            std::string version;
            words >> version;
            if (key != "novikoff-perceptron" || version != "1") {
                error = "expected 'novikoff-perceptron 1'";
                return false;
            }
            header = true;
            continue;
        }
        if (key == "end") {
            ended = true;
            break;
        }
        std::vector<std::string> args;
        for (std::string w; words >> w;) args.push_back(w);
        if (key == "sample") {
            req.y.push_back(args.at(0) == "+1" ? 1 : -1);
            std::vector<mpq_class> x;
            for (std::size_t j = 1; j < args.size(); ++j) x.push_back(number(args[j]));
            req.X.push_back(x);
        } else {
            req.keys[key] = args;
        }
    }
    if (!ended) error = "no final 'end' line";
    return ended;
}

mpq_class to_float32(const mpq_class& v) {
    // The protocol's data are float64 values, so get_d is exact; the cast rounds to nearest.
    return mpq_class(static_cast<double>(static_cast<float>(v.get_d())));
}

}  // namespace

int main() {
    Request req;
    std::string error;
    if (!read_request(std::cin, req, error)) {
        std::cerr << "bad request: " << error << "\n";
        return 2;
    }
#ifdef BUG_HANG
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(60));
#endif
    std::cout << "novikoff-perceptron 1\n";
    auto key = [&](const std::string& k) { return req.keys[k].at(0); };
    if (key("algorithm") != "perceptron") {
        std::cout << "unsupported this example runs the perceptron only\nend\n";
        return 0;
    }
    const std::size_t m = req.X.size(), d = req.X.empty() ? 0 : req.X[0].size();
    const mpq_class bias = number(key("bias")), margin = number(key("margin")),
                    eta = number(key("learning_rate"));
    const std::string rule = key("tie_rule"), stop = key("stop");
    const long max_epochs = std::stol(key("max_epochs"));
    const bool float32 = key("precision") == "float32";
    // z_i = y_i (x_i, bias), the bias coordinate last
    std::vector<std::vector<mpq_class>> Z(m, std::vector<mpq_class>(d + 1));
    for (std::size_t i = 0; i < m; ++i) {
#ifdef BUG_CRASH
        bool zero = true;
        for (std::size_t j = 0; j < d; ++j) zero = zero && req.X[i][j] == 0;
        if (zero) {
            volatile int* nowhere = nullptr;
            *nowhere = 1;
        }
#endif
        for (std::size_t j = 0; j < d; ++j) Z[i][j] = req.y[i] * (float32 ? to_float32(req.X[i][j]) : req.X[i][j]);
        Z[i][d] = req.y[i] * bias;
    }
    std::vector<mpq_class> w(d + 1);
    const auto& w0 = req.keys["initial_weights"];
    for (std::size_t j = 0; j < d + 1 && j < w0.size(); ++j) w[j] = number(w0[j]);
    const auto& order = req.keys["order"];
    std::vector<std::size_t> given;
    if (order.at(0) == "given")
        for (std::size_t j = 1; j < order.size(); ++j) given.push_back(std::stoul(order[j]));
    std::vector<std::size_t> updates;
    long epochs = 0;
    bool converged = false;
    for (long epoch = 0; epoch < max_epochs; ++epoch) {
        ++epochs;
        std::vector<std::size_t> present = given;
        if (order.at(0) == "shuffle-v1") present = shuffle_v1(std::stoull(order.at(1)), epoch, m);
        if (order.at(0) == "natural") {
            present.resize(m);
            for (std::size_t i = 0; i < m; ++i) present[i] = i;
        }
#ifdef BUG_LAST
        if (!present.empty()) present.pop_back();
#endif
        bool clean = true;
        for (std::size_t i : present) {
            mpq_class p = 0;  // y w.x~ = w.z
            for (std::size_t j = 0; j <= d; ++j) p += w[j] * Z[i][j];
            bool update;
            if (rule == "strict") update = p < margin;
            else if (rule == "sign-positive") update = p < 0 || (p == 0 && req.y[i] < 0);
            else if (rule == "sign-negative") update = p < 0 || (p == 0 && req.y[i] > 0);
#ifdef BUG_TIE
            else update = p < margin;
#else
            else update = p <= margin;
#endif
            if (!update) continue;
#ifdef BUG_BIAS
            for (std::size_t j = 0; j < d; ++j) w[j] += eta * Z[i][j];
#else
            for (std::size_t j = 0; j <= d; ++j) w[j] += eta * Z[i][j];
#endif
            updates.push_back(i);
            clean = false;
        }
#ifdef NOISY
        std::cerr << "epoch " << epoch << ": " << updates.size() << " updates so far\n";
#endif
        if (clean) {
            converged = true;
            if (stop == "converged") break;
        }
    }
#ifdef BUG_EPOCHS
    ++epochs;
#endif
#ifdef BUG_STDOUT
    std::cout << "debug: done\n";
#endif
    std::cout << "weights";
    for (const auto& v : w) std::cout << ' ' << v.get_str();
    std::cout << "\nupdates";
    for (std::size_t i : updates) std::cout << ' ' << i;
    std::cout << "\nmistakes " << updates.size() << "\nepochs " << epochs << "\nconverged "
              << (converged ? "yes" : "no") << "\nend\n";
    return 0;
}
