// How fast this machine can move a file over loopback TCP at all, with no
// HTTP server in the way: the ceiling for bench/s3_get_bench.py.
//
//   loopback_ceiling <file> <runs> <streams> cold|warm
//
// Each run reads the file sequentially (8 MiB read()s; the S3 benchmark's
// "local" baseline), then sends it over <streams> loopback connections at
// once, stream i sendfile(2)-ing the i-th contiguous slice to a thread that
// recv()s it into a buffer. "cold" drops the file's pages first
// (posix_fadvise DONTNEED) before each read. Prints the medians and their
// ratio.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr size_t kChunkBytes = 8 << 20;

double Seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void DropFromPageCache(const char* path) {
  int fd = ::open(path, O_RDONLY);
  if (fd < 0) return;
  ::fsync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

double ReadLocal(const char* path, std::vector<char>& buffer) {
  double start = Seconds();
  int fd = ::open(path, O_RDONLY);
  while (::read(fd, buffer.data(), buffer.size()) > 0) {
  }
  ::close(fd);
  return Seconds() - start;
}

// Sends [0, size) of `path` over `streams` loopback connections at once.
double SendOverLoopback(const char* path, size_t size, int streams) {
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address);
  ::listen(listener, streams);
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  std::vector<int> receivers, senders;
  for (int i = 0; i < streams; ++i) {
    int receiver = ::socket(AF_INET, SOCK_STREAM, 0);
    ::connect(receiver, reinterpret_cast<sockaddr*>(&address), sizeof address);
    receivers.push_back(receiver);
    senders.push_back(::accept(listener, nullptr, nullptr));
  }
  size_t slice = size / static_cast<size_t>(streams);
  double start = Seconds();
  std::vector<std::thread> threads;
  for (int i = 0; i < streams; ++i) {
    off_t first = static_cast<off_t>(slice * static_cast<size_t>(i));
    off_t end = i == streams - 1 ? static_cast<off_t>(size) : first + static_cast<off_t>(slice);
    threads.emplace_back([&, i, first, end] {
      int fd = ::open(path, O_RDONLY);
      ::posix_fadvise(fd, first, end - first, POSIX_FADV_SEQUENTIAL);
      off_t offset = first;
      while (offset < end) {
        size_t want = std::min<size_t>(kChunkBytes, static_cast<size_t>(end - offset));
        if (::sendfile(senders[static_cast<size_t>(i)], fd, &offset, want) <= 0) break;
      }
      ::close(fd);
    });
    threads.emplace_back([&, i, first, end] {
      std::vector<char> buffer(kChunkBytes);
      size_t want = static_cast<size_t>(end - first), got = 0;
      while (got < want) {
        ssize_t n = ::recv(receivers[static_cast<size_t>(i)], buffer.data(), buffer.size(), 0);
        if (n <= 0) break;
        got += static_cast<size_t>(n);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  double elapsed = Seconds() - start;
  for (int fd : receivers) ::close(fd);
  for (int fd : senders) ::close(fd);
  ::close(listener);
  return elapsed;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5 || (std::strcmp(argv[4], "cold") != 0 && std::strcmp(argv[4], "warm") != 0)) {
    std::fprintf(stderr, "usage: %s <file> <runs> <streams> cold|warm\n", argv[0]);
    return 2;
  }
  const char* path = argv[1];
  int runs = std::max(1, std::atoi(argv[2]));
  int streams = std::max(1, std::atoi(argv[3]));
  bool cold = std::strcmp(argv[4], "cold") == 0;
  struct stat st {};
  if (::stat(path, &st) != 0 || st.st_size == 0) {
    std::fprintf(stderr, "%s: cannot stat a non-empty file\n", path);
    return 1;
  }
  size_t size = static_cast<size_t>(st.st_size);
  std::vector<char> buffer(kChunkBytes);
  std::vector<double> local, loopback;
  for (int run = 0; run < runs; ++run) {
    if (cold) DropFromPageCache(path);
    local.push_back(ReadLocal(path, buffer));
    if (cold) DropFromPageCache(path);
    loopback.push_back(SendOverLoopback(path, size, streams));
  }
  double mb = static_cast<double>(size) / 1e6;
  std::printf("%s streams=%d local %.0f MB/s, loopback sendfile %.0f MB/s, ratio %.2f\n", argv[4],
              streams, mb / Median(local), mb / Median(loopback), Median(local) / Median(loopback));
  return 0;
}
