package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// answerWait bounds how long the end of mcp's input is held back for the
// answers to the requests before it.
const answerWait = 30 * time.Second

// stdio is the mcp command's standard input and output, between the
// client and the SDK's transport, for two things the transport does not
// do:
//
//   - It ends the session at the first input that is not a JSON-RPC
//     message (a line of bad JSON, a number, an empty batch, a batch where
//     the protocol has none). stdio answers those itself, with JSON-RPC's
//     parse error or invalid request, skips the rest of the line, and
//     passes the SDK only messages it reads.
//   - A client that writes its requests and then closes its end of the
//     pipe (printf ... | skilldex mcp) should get every answer, but the
//     SDK cancels the requests in flight when its reader ends. The end of
//     the input is held back until every request read has been answered,
//     or answerWait has passed.
type stdio struct {
	r io.Reader
	w io.Writer

	writing sync.Mutex // one message at a time on w

	// Read's state: Read is called by one goroutine at a time.
	chunk    []byte // what the last read of r returned
	pending  []byte // input not yet taken apart into messages
	skipping bool   // after bad input: drop input up to the next line end
	ready    []byte // messages checked, one a line, for the SDK to read
	eof      bool   // r ended; once ready is read, Read waits, then says so

	mu       sync.Mutex
	requests int           // requests passed on: messages with an id and a method
	answers  int           // responses written: messages with an id and no method
	changed  chan struct{} // closed, and replaced, when answers changes
	protocol string        // the protocol version of the session
	out      jsonValues    // the messages written, split
}

func newStdio(in io.Reader, out io.Writer) *stdio {
	return &stdio{r: in, w: out, changed: make(chan struct{}), chunk: make([]byte, 32<<10)}
}

func (s *stdio) Read(p []byte) (int, error) {
	for len(s.ready) == 0 {
		if s.eof {
			s.waitForAnswers()
			return 0, io.EOF
		}
		n, err := s.r.Read(s.chunk)
		s.pending = append(s.pending, s.chunk[:n]...)
		switch {
		case err == io.EOF:
			s.eof = true
		case err != nil:
			return 0, err
		}
		if werr := s.split(); werr != nil {
			return 0, werr
		}
	}
	n := copy(p, s.ready)
	s.ready = s.ready[n:]
	return n, nil
}

// split takes the complete messages out of pending: the JSON-RPC ones go
// to ready, the others are answered with an error. At the end of the
// input, what is left is incomplete, and answered so.
func (s *stdio) split() error {
	for {
		if s.skipping {
			i := bytes.IndexByte(s.pending, '\n')
			if i < 0 {
				s.pending = s.pending[:0]
				return nil
			}
			s.pending, s.skipping = s.pending[i+1:], false
		}
		s.pending = bytes.TrimLeft(s.pending, " \t\r\n")
		if len(s.pending) == 0 {
			s.pending = s.pending[:0]
			return nil
		}
		dec := json.NewDecoder(bytes.NewReader(s.pending))
		var value json.RawMessage
		err := dec.Decode(&value)
		var syntax *json.SyntaxError
		switch {
		case err == nil && !s.eof && int(dec.InputOffset()) == len(s.pending) && strings.IndexByte(`{["`, value[0]) < 0:
			return nil // a number may go on in the next read
		case err == nil:
			s.pending = s.pending[dec.InputOffset():]
			if err := s.take(value); err != nil {
				return err
			}
		case errors.As(err, &syntax):
			s.skipping = true
			if err := s.answer(nil, jsonrpc.CodeParseError, "parse error: "+err.Error()+"; each line should be one JSON-RPC message"); err != nil {
				return err
			}
		case s.eof: // io.ErrUnexpectedEOF: the input ended inside a message
			s.pending = s.pending[:0]
			return s.answer(nil, jsonrpc.CodeParseError, "parse error: the input ended inside a message")
		default:
			return nil // the rest of the message is still to come
		}
	}
}

// take passes value on to the SDK when it is a JSON-RPC message, or a
// batch of them where the session's protocol has batches, and answers it
// with an invalid request error otherwise.
func (s *stdio) take(value json.RawMessage) error {
	var problem string
	var id json.RawMessage
	switch value[0] {
	case '{':
		msg, err := jsonrpc.DecodeMessage(value)
		if err != nil {
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			json.Unmarshal(value, &m)
			id, problem = m.ID, err.Error()
			break
		}
		if r, ok := msg.(*jsonrpc.Request); ok && r.Method == "initialize" {
			// The version the client asks for until the answer says
			// which one the server agreed to: messages that follow may
			// be read before that is written.
			var params struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			json.Unmarshal(r.Params, &params)
			s.mu.Lock()
			s.protocol = params.ProtocolVersion
			s.mu.Unlock()
		}
	case '[':
		var batch []json.RawMessage
		json.Unmarshal(value, &batch)
		s.mu.Lock()
		protocol := s.protocol
		s.mu.Unlock()
		switch {
		case len(batch) == 0:
			problem = "an empty batch"
		case protocol >= "2025-06-18":
			problem = "a batch, which MCP " + protocol + " has not; send the messages one a line"
		}
		for _, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil && problem == "" {
				problem = "a batch holding " + err.Error()
			}
		}
	default:
		problem = "not a JSON-RPC message, which is an object"
	}
	if problem != "" {
		return s.answer(id, jsonrpc.CodeInvalidRequest, "invalid request: "+problem)
	}
	s.mu.Lock()
	s.requests += countMessages(value, true)
	s.mu.Unlock()
	s.ready = append(append(s.ready, value...), '\n')
	return nil
}

// answer writes a JSON-RPC error response of its own to the client; id is
// the request's, or nil when it has none that can be read.
func (s *stdio) answer(id json.RawMessage, code int64, message string) error {
	if len(id) == 0 || !(id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9')) {
		id = json.RawMessage("null")
	}
	msg, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	if err != nil {
		return err
	}
	s.writing.Lock()
	defer s.writing.Unlock()
	_, err = s.w.Write(append(msg, '\n'))
	return err
}

func (s *stdio) Write(p []byte) (int, error) {
	s.writing.Lock()
	n, err := s.w.Write(p)
	s.writing.Unlock()
	s.mu.Lock()
	answers := s.answers
	s.out.feed(p[:n], func(v []byte) {
		s.answers += countMessages(v, false)
		if p := agreedProtocol(v); p != "" {
			s.protocol = p
		}
	})
	if s.answers != answers {
		close(s.changed)
		s.changed = make(chan struct{})
	}
	s.mu.Unlock()
	return n, err
}

// agreedProtocol is the protocol version in the answer to initialize, or
// "" when response is another message.
func agreedProtocol(response []byte) string {
	var m struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if !bytes.Contains(response, []byte(`"protocolVersion"`)) || json.Unmarshal(response, &m) != nil {
		return ""
	}
	return m.Result.ProtocolVersion
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

// countMessages counts the requests (requests true: an id and a method)
// or the responses (an id and no method) in a JSON-RPC message: an object,
// or a batch of them.
func countMessages(value []byte, requests bool) int {
	type message struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	var batch []message
	if len(value) > 0 && value[0] == '[' {
		if json.Unmarshal(value, &batch) != nil {
			return 0
		}
	} else {
		var m message
		if json.Unmarshal(value, &m) != nil {
			return 0
		}
		batch = []message{m}
	}
	count := 0
	for _, m := range batch {
		if len(m.ID) > 0 && string(m.ID) != "null" && (m.Method != "") == requests {
			count++
		}
	}
	return count
}

// jsonValues splits a stream into its top-level JSON objects and arrays,
// however they are spread over lines and writes. What is between them (blanks, and anything that is no
// object or array) is skipped.
type jsonValues struct {
	buf           []byte
	depth         int
	inString, esc bool
}

// feed scans data and calls fn with each value it completes.
func (j *jsonValues) feed(data []byte, fn func(value []byte)) {
	for _, c := range data {
		if j.depth == 0 {
			if c != '{' && c != '[' {
				continue
			}
			j.buf = j.buf[:0]
		}
		j.buf = append(j.buf, c)
		switch {
		case j.inString:
			switch {
			case j.esc:
				j.esc = false
			case c == '\\':
				j.esc = true
			case c == '"':
				j.inString = false
			}
		case c == '"':
			j.inString = true
		case c == '{' || c == '[':
			j.depth++
		case c == '}' || c == ']':
			j.depth--
			if j.depth == 0 {
				fn(j.buf)
			}
		}
	}
}
