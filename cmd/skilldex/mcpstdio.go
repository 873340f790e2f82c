package main

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// answerWait bounds how long the end of mcp's input is held back for the
// answers to the requests before it.
const answerWait = 30 * time.Second

// stdio is the mcp command's standard input and output, as the protocol's
// newline-delimited messages. A client that writes its requests and then
// closes its end of the pipe (printf ... | skilldex mcp) gets every
// answer: the SDK cancels the requests in flight when its reader ends, so
// the end of the input is held back until every request read has been
// answered, or answerWait has passed.
type stdio struct {
	in  io.Reader
	out io.Writer

	mu       sync.Mutex
	requests int           // requests read: messages with an id and a method
	answers  int           // responses written: messages with an id and no method
	changed  chan struct{} // closed, and replaced, when answers changes
	eof      bool          // in ended; the next Read waits, then says so
	inLine   []byte        // the start of a message read in part
	outLine  []byte        // the start of a message written in part
}

func newStdio(in io.Reader, out io.Writer) *stdio {
	return &stdio{in: in, out: out, changed: make(chan struct{})}
}

func (s *stdio) Read(p []byte) (int, error) {
	if s.eof {
		s.waitForAnswers()
		return 0, io.EOF
	}
	n, err := s.in.Read(p)
	s.mu.Lock()
	s.requests += countMessages(&s.inLine, p[:n], true)
	s.mu.Unlock()
	if err == io.EOF {
		// What came with the end is the server's to read first.
		s.eof = true
		if n > 0 {
			return n, nil
		}
		s.waitForAnswers()
	}
	return n, err
}

func (s *stdio) Write(p []byte) (int, error) {
	n, err := s.out.Write(p)
	s.mu.Lock()
	if k := countMessages(&s.outLine, p[:n], false); k > 0 {
		s.answers += k
		close(s.changed)
		s.changed = make(chan struct{})
	}
	s.mu.Unlock()
	return n, err
}

// Close does nothing: the command's standard input and output outlive the
// session.
func (s *stdio) Close() error { return nil }

// waitForAnswers returns when every request read has been answered, or
// answerWait after it was called.
func (s *stdio) waitForAnswers() {
	deadline := time.NewTimer(answerWait)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		done, changed := s.answers >= s.requests, s.changed
		s.mu.Unlock()
		if done {
			return
		}
		select {
		case <-changed:
		case <-deadline.C:
			return
		}
	}
}

// countMessages adds data to the partial line *line and counts the
// complete lines that are requests (requests true: an id and a method) or
// responses (an id and no method).
func countMessages(line *[]byte, data []byte, requests bool) int {
	count := 0
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			*line = append(*line, data...)
			break
		}
		msg := data[:i]
		if len(*line) > 0 {
			*line = append(*line, msg...)
			msg = *line
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(msg, &m) == nil && len(m.ID) > 0 && string(m.ID) != "null" && (m.Method != "") == requests {
			count++
		}
		*line = (*line)[:0]
		data = data[i+1:]
	}
	return count
}
